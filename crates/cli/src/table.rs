//! Plain text tables: columns padded to the widest cell, counted in characters (the
//! cells hold `≥`, `→`, `–`).

/// How a column is aligned.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Renders `header` and `rows`, two spaces between columns, no trailing spaces.
pub fn render(header: &[&str], align: &[Align], rows: &[Vec<String>]) -> String {
    let columns = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header_row: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header_row).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate().take(columns) {
            let width = widths.get(i).copied().unwrap_or(0);
            let pad = width.saturating_sub(cell.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            match align.get(i).copied().unwrap_or(Align::Left) {
                Align::Left => {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                Align::Right => {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A label column then `numbers` right-aligned ones: how the result tables look.
pub fn label_then_numbers(numbers: usize) -> Vec<Align> {
    std::iter::once(Align::Left)
        .chain(std::iter::repeat_n(Align::Right, numbers))
        .collect()
}

/// `10000` → `10 s`, `1500` → `1.5 s`.
pub fn seconds(ms: u64) -> String {
    let mut s = format!("{}.{:03}", ms / 1000, ms % 1000);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    format!("{s} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_by_characters() {
        let t = render(
            &["a", "n"],
            &[Align::Left, Align::Right],
            &[
                vec!["x ≥ y".into(), "5".into()],
                vec!["z".into(), "12".into()],
            ],
        );
        assert_eq!(t, "a       n\nx ≥ y   5\nz      12\n");
    }
}
