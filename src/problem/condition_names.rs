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
    ("CirceTake&Make", "CirceTake&Make", "CirceTake&Make"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::options::fairy_condition;
    use crate::rules::fairy::Condition;
    use crate::rules::fairy::conditions::Rebirth;

    #[test]
    fn rebirth_options_in_every_language_and_by_prefix() {
        assert_eq!(rebirth_option("rexinkl"), Some("RexInclusive"));
        assert_eq!(rebirth_option("RexInclusif"), Some("RexInclusive"));
        assert_eq!(rebirth_option("fallschirm"), Some("Parachute"));
        assert_eq!(rebirth_option("Strikt"), Some("Strict"));
        assert_eq!(rebirth_option("rex"), None, "RexInclusive or RexExclusive");
        assert_eq!(rebirth_option("e4"), None);
    }

    #[test]
    fn circe_family_names_and_options() {
        let c = |w: &[&str]| fairy_condition(w);
        assert_eq!(c(&["Circe", "RexInclusive"]), Some((Condition::Rebirth(Rebirth::Circe { rex: true }), 2)));
        assert_eq!(c(&["CirceParrain"]), Some((Condition::Rebirth(Rebirth::Parrain), 1)));
        assert_eq!(c(&["Circe", "Parrain"]), Some((Condition::Rebirth(Rebirth::Parrain), 2)));
        assert_eq!(c(&["Circe", "LastMove", "Equipollents"]), Some((Condition::Rebirth(Rebirth::Parrain), 3)));
        assert_eq!(c(&["Marscirce"]), Some((Condition::Rebirth(Rebirth::Mars), 1)));
        assert_eq!(c(&["AntiCirce", "Cheylan"]), Some((Condition::Rebirth(Rebirth::Anti { cheylan: true }), 2)));
        assert_eq!(c(&["Gitterschach"]), Some((Condition::Grid, 1)));
        assert_eq!(c(&["SchwarzerLaengstzueger"]), Some((Condition::Maximummer(crate::piece::Color::Black), 1)));
        // The family's Take&Make option: a rebirth rule of its own.
        assert_eq!(c(&["Circe", "Take&Make"]), Some((Condition::Rebirth(Rebirth::CirceTakeMake), 2)));
        assert_eq!(c(&["CirceTake&Make"]), Some((Condition::Rebirth(Rebirth::CirceTakeMake), 1)));
        assert_eq!(c(&["AntiCirce", "take&make"]), Some((Condition::Rebirth(Rebirth::AntiTakeMake), 2)));
        assert_eq!(c(&["AntiCirce", "Cheylan", "Take&Make"]), None);
        // Options feerie does not play: the condition is not played.
        assert_eq!(c(&["Circe", "Parachute"]), None);
        assert_eq!(c(&["AntiCirce", "Relaxed"]), None);
        assert_eq!(c(&["MarsCirce", "RexExclusive"]), None);
    }

    #[test]
    fn german_popeye_input_reads_circe_options() {
        let loaded = crate::problem::load_popeye_str(GERMAN, "de.inp");
        assert_eq!(loaded.len(), 3);
        let crate::problem::Loaded::Ready(p) = &loaded[0] else { panic!("{:?}", loaded[0]) };
        assert!(p.options.keywords().join(" ").contains("Circe RexInclusive"), "{:?}", p.options.keywords());
        let crate::problem::Loaded::Unsupported { reason, .. } = &loaded[1] else { panic!("{:?}", loaded[1]) };
        assert!(reason.contains("condition 'Circe Parachute'"), "{reason}");
        assert!(matches!(loaded[2], crate::problem::Loaded::Ready(_)), "{:?}", loaded[2]);
    }

    const GERMAN: &str = "anfangproblem\nforderung #2\nbedingung circe rexinkl\nsteine weiss kc3 tb8e5 schwarz ka3\nweiter\n\
        forderung #2\nbedingung circe fallschirm\nsteine weiss kc3 tb8e5 schwarz ka3\nweiter\n\
        forderung #2\nbedingung gitterschach\nsteine weiss kc3 tb8e5 schwarz ka3\nendeproblem\n";
}
