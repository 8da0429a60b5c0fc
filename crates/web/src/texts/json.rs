//! The JSON box.

use super::Tr;

/// The JSON box's words.
#[derive(Debug)]
#[allow(missing_docs)]
pub struct Json {
    pub json: &'static str,
    pub export: &'static str,
    pub import: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    /// A big import's progress (`{percent}`, `{done}`, `{total}` filled in).
    pub building: &'static str,
    /// A big import being read (in a worker), before it is built.
    pub reading: &'static str,
}

/// The JSON box's words in every language.
pub static JSON: Tr<Json> = Tr {
    en: Json {
        json: "JSON (the command line's format)",
        export: "Export current setup",
        import: "Import",
        copy: "Copy",
        copied: "Copied",
        building: "building… {percent} % ({done} of {total} requests)",
        reading: "reading…",
    },
    vi: Json {
        json: "JSON (định dạng của dòng lệnh)",
        export: "Xuất thiết lập hiện tại",
        import: "Nhập",
        copy: "Sao chép",
        copied: "Đã sao chép",
        building: "đang dựng… {percent} % ({done} trên {total} yêu cầu)",
        reading: "đang đọc…",
    },
};
