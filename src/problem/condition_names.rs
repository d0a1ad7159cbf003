//! Popeye's names of the fairy conditions feerie plays (or is adding), in English, French and
//! German, from Popeye's manuals (`py-engl.txt`, `py-fran.txt`, `py-deut.txt`), and the words
//! that may follow the Circe family (`Circe RexInclusive`, `AntiCirce Cheylan`, `Circe
//! Parrain`). A Popeye input reads each through these tables to the English name, and, as
//! Popeye does, takes any unique prefix of a name.

/// Conditions: (English, French, German).
pub const CONDITION_NAMES: &[(&str, &str, &str)] = &[
    ("Circe", "Circe", "Circe"),
    ("AntiCirce", "AntiCirce", "AntiCirce"),
    ("MarsCirce", "MarsCirce", "Marscirce"),
    ("ParrainCirce", "CirceParrain", "CirceParrain"),
    ("Madrasi", "Madrasi", "Madrasi"),
    ("BlackMaximummer", "NoirMaximum", "SchwarzerLaengstzueger"),
    ("WhiteMaximummer", "BlancMaximum", "WeisserLaengstzueger"),
    ("GridChess", "Grille", "Gitterschach"),
    ("MonochromChess", "Monochromatique", "MonochromesSchach"),
    ("BichromChess", "Bichromatique", "BichromesSchach"),
    ("AndernachChess", "EchecsAndernach", "AndernachSchach"),
    ("AntiAndernachChess", "EchecsAntiAndernach", "AntiAndernachSchach"),
    // Conditions other branches add: their names, for their readers.
    ("Isardam", "Isardam", "Isardam"),
    ("Patrouille", "Patrouille", "PatrouilleSchach"),
    ("KoeKo", "Koeko", "KoeKo"),
    ("ChecklessChess", "SansEchecs", "Ohneschach"),
    ("Take&MakeChess", "Take&MakeEchecs", "Take&MakeSchach"),
    ("Make&TakeChess", "Make&TakeEchecs", "Make&TakeSchach"),
    ("AnnanChess", "AnnanEchecs", "AnnanSchach"),
    ("HaanerChess", "Haan", "HaanerSchach"),
    ("Hole", "Trou", "Loch"),
];

/// The words that may follow Circe, AntiCirce, MarsCirce (Popeye's eight groups of options):
/// (English, French, German).
pub const REBIRTH_OPTIONS: &[(&str, &str, &str)] = &[
    ("RexInclusive", "RexInclusif", "RexInklusive"),
    ("RexExclusive", "RexExclusif", "RexExklusive"),
    ("LastMove", "CoupDernier", "LetzterZug"),
    ("WaitCapture", "PriseProchaine", "NaechsterSchlag"),
    ("Clone", "Clone", "Clone"),
    ("Couscous", "Couscous", "Couscous"),
    ("Mirror", "Malefique", "Spiegel"),
    ("April", "Avril", "April"),
    ("Equipollents", "Equipollents", "Equipollents"),
    ("Parrain", "Parrain", "Parrain"),
    ("ContraParrain", "ContraParrain", "KontraParrain"),
    ("Rank", "Rangee", "Reihe"),
    ("File", "Colonne", "File"),
    ("Symmetry", "Symetrie", "Symmetrie"),
    ("Diagram", "Diagramme", "Diagramm"),
    ("PWC", "Echange", "Platzwechsel"),
    ("Antipodes", "Antipodes", "Antipoden"),
    ("Super", "Super", "Super"),
    ("Cage", "Cage", "Kaefig"),
    ("CaptureSquare", "CaseDePrise", "Schlagfeld"),
    ("Diametral", "Diametral", "Diametral"),
    ("VerticalMirror", "MalefiqueVerticale", "VertikalSpiegel"),
    ("Frischauf", "Frischauf", "Frischauf"),
    ("Chameleon", "Cameleon", "Chamaeleon"),
    ("Turncoat", "Turncoats", "Turncoat"),
    ("ReversalEinstein", "ReversEinstein", "ReversesEinstein"),
    ("Relaxed", "Relache", "Locker"),
    ("Strict", "Strict", "Strikt"),
    ("Assassin", "Assassin", "Assassin"),
    ("Volcanic", "Volcan", "Vulkan"),
    ("Parachute", "Parachute", "Fallschirm"),
    ("Calvet", "Calvet", "Calvet"),
    ("Cheylan", "Cheylan", "Cheylan"),
];

/// The English name of a rebirth option word in any language (case-insensitive), exact or a
/// unique prefix.
pub fn rebirth_option(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    if w.is_empty() {
        return None;
    }
    let all = || REBIRTH_OPTIONS.iter().flat_map(|e| [(e.1, e.0), (e.2, e.0), (e.0, e.0)]);
    if let Some((_, en)) = all().find(|(k, _)| k.to_lowercase() == w) {
        return Some(en);
    }
    let mut hits = all().filter(|(k, _)| k.to_lowercase().starts_with(&w)).map(|(_, en)| en);
    let first = hits.next()?;
    hits.all(|en| en == first).then_some(first)
}
