//! The chooser as JSON for the faces: a pick, a walk, and the whole chooser.

use serde::Serialize;

use crate::texts::Lang;

use super::{
    letter, pick, picks, Fit, Next, Pick, Walk, GOALS, MATRIX_COLUMNS, MATRIX_ROWS, QUESTIONS,
    SITUATIONS, START,
};

/// A pick as the faces show it: title, why, parameters and the lesson step.
#[derive(Clone, Debug, Serialize)]
pub struct PickOut {
    /// The pick's id.
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// Why it fits.
    pub why: String,
    /// The limiters, by id, the first the one to use.
    pub algorithms: Vec<&'static str>,
    /// The chosen limiter's lane as the lesson step runs it (the JSON format's lane).
    pub lane: Option<serde_json::Value>,
    /// Its parameters in words.
    pub params: String,
    /// The lesson that proves it.
    pub lesson: &'static str,
    /// Its step, from 1 (as in the link).
    pub step: usize,
    /// The page's query for that step, `lesson=ID&step=N`.
    pub query: String,
}

impl Pick {
    /// Its texts in `lang`, its lane and its link.
    pub fn out(&self, lang: Lang) -> PickOut {
        let t = lang.texts();
        PickOut {
            id: self.id,
            title: t.or_key(&format!("choose.pick.{}.title", self.id)),
            why: t.or_key(&format!("choose.pick.{}.why", self.id)),
            algorithms: self.algorithms.iter().map(|a| a.id()).collect(),
            lane: self.lane().and_then(|l| {
                // The JSON format's own writer: a config of this one lane.
                let config =
                    ratelab_sim::Config::new(ratelab_sim::Stream::default(), vec![l], None);
                let mut v: serde_json::Value = serde_json::from_str(&config.to_json()).ok()?;
                Some(v.get_mut("limiters")?.get_mut(0)?.take())
            }),
            params: self.params_text(lang),
            lesson: self.lesson,
            step: self.step + 1,
            query: self.query(),
        }
    }
}

/// A walk as JSON (`ratelab choose --answers … --json`): `{"answers": [{"question",
/// "answer", "letter"}], "pick": PickOut}`.
pub fn walk_json(walk: &Walk, lang: Lang) -> String {
    #[derive(Serialize)]
    struct Step {
        id: &'static str,
        question: String,
        letter: String,
        answer: String,
    }
    #[derive(Serialize)]
    struct Out {
        answers: Vec<Step>,
        pick: PickOut,
    }
    let t = lang.texts();
    let out = Out {
        answers: walk
            .steps
            .iter()
            .map(|(q, i)| Step {
                id: q.id,
                question: t.or_key(&format!("choose.{}.question", q.id)),
                letter: letter(*i).to_string(),
                answer: q.answers.get(*i).map_or_else(String::new, |a| {
                    t.or_key(&format!("choose.{}.{}", q.id, a.id))
                }),
            })
            .collect(),
        pick: walk.pick.out(lang),
    };
    serde_json::to_string(&out).unwrap_or_default()
}

/// The whole chooser as JSON in `lang` (`ratelab choose --json`): the questions
/// (each answer leading to a question id or a pick id), the picks, the decision
/// matrix (each column with the pick it links to), the goals and situations.
pub fn to_json(lang: Lang) -> String {
    #[derive(Serialize)]
    struct AnswerOut {
        letter: String,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ask: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pick: Option<&'static str>,
    }
    #[derive(Serialize)]
    struct QuestionOut {
        id: &'static str,
        question: String,
        answers: Vec<AnswerOut>,
    }
    #[derive(Serialize)]
    struct Column {
        id: &'static str,
        title: String,
        algorithms: Vec<&'static str>,
        pick: Option<&'static str>,
        query: Option<String>,
    }
    #[derive(Serialize)]
    struct Row {
        id: &'static str,
        title: String,
        cells: Vec<String>,
    }
    #[derive(Serialize)]
    struct FitOut {
        id: &'static str,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        picks: Vec<&'static str>,
    }
    #[derive(Serialize)]
    struct Out {
        lang: &'static str,
        title: String,
        start: &'static str,
        questions: Vec<QuestionOut>,
        picks: Vec<PickOut>,
        matrix: Matrix,
        goals: Vec<FitOut>,
        situations: Vec<FitOut>,
    }
    #[derive(Serialize)]
    struct Matrix {
        title: String,
        columns: Vec<Column>,
        rows: Vec<Row>,
    }
    let t = lang.texts();
    let fits = |table: &str, rows: &[Fit], why: bool| -> Vec<FitOut> {
        rows.iter()
            .map(|f| FitOut {
                id: f.id,
                text: t.or_key(&format!("choose.{table}.{}", f.id)),
                why: why.then(|| t.or_key(&format!("choose.{table}.{}.why", f.id))),
                picks: f.picks.to_vec(),
            })
            .collect()
    };
    let out = Out {
        lang: lang.id(),
        title: t.or_key("choose.title"),
        start: START,
        questions: QUESTIONS
            .iter()
            .map(|q| QuestionOut {
                id: q.id,
                question: t.or_key(&format!("choose.{}.question", q.id)),
                answers: q
                    .answers
                    .iter()
                    .enumerate()
                    .map(|(i, a)| AnswerOut {
                        letter: letter(i).to_string(),
                        text: t.or_key(&format!("choose.{}.{}", q.id, a.id)),
                        ask: match a.next {
                            Next::Ask(id) => Some(id),
                            Next::Pick(_) => None,
                        },
                        pick: match a.next {
                            Next::Pick(p) => Some(p.id),
                            Next::Ask(_) => None,
                        },
                    })
                    .collect(),
            })
            .collect(),
        picks: picks().iter().map(|p| p.out(lang)).collect(),
        matrix: Matrix {
            title: t.or_key("choose.matrix.title"),
            columns: MATRIX_COLUMNS
                .iter()
                .map(|(id, algorithms)| Column {
                    id,
                    title: t.or_key(&format!("choose.matrix.col.{id}")),
                    algorithms: algorithms.iter().map(|a| a.id()).collect(),
                    pick: pick(id).map(|p| p.id),
                    query: pick(id).map(|p| p.query()),
                })
                .collect(),
            rows: MATRIX_ROWS
                .iter()
                .map(|row| Row {
                    id: row,
                    title: t.or_key(&format!("choose.matrix.{row}")),
                    cells: MATRIX_COLUMNS
                        .iter()
                        .map(|(col, _)| t.or_key(&format!("choose.matrix.{row}.{col}")))
                        .collect(),
                })
                .collect(),
        },
        goals: fits("goal", GOALS, false),
        situations: fits("situation", SITUATIONS, true),
    };
    serde_json::to_string(&out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::chooser::*;
    use crate::texts::Lang;

    #[test]
    fn the_tables_name_picks_that_exist() {
        for f in GOALS.iter().chain(SITUATIONS) {
            assert!(!f.picks.is_empty());
            for id in f.picks {
                assert!(pick(id).is_some(), "{}: no pick {id}", f.id);
            }
        }
        for (col, algorithms) in MATRIX_COLUMNS {
            let p = pick(col).unwrap_or_else(|| panic!("column {col}: no pick"));
            assert!(p.algorithms.iter().any(|a| algorithms.contains(a)), "{col}");
        }
        for lang in Lang::ALL {
            let v: serde_json::Value = serde_json::from_str(&to_json(lang)).unwrap();
            assert_eq!(v["questions"].as_array().unwrap().len(), QUESTIONS.len());
            assert_eq!(v["picks"].as_array().unwrap().len(), 5);
            assert!(
                !to_json(lang).contains("[choose."),
                "{}: a missing text",
                lang.id()
            );
            let w = walk_json(&walk(&["b", "b", "b", "b"]).unwrap(), lang);
            assert!(!w.contains("[choose."), "{w}");
        }
    }
}
