//! The HTML report in a real browser: `feerie report` on a small collection
//! (tests/data/html/collection.yaml: sound, cooked, invalid, twins, Réserve, Xiangqi, Cheskers),
//! rendered by headless Chromium. The dumped DOM must hold the verdicts, the diagrams as SVG and
//! the escaped texts; the screenshot must show the first diagram as an 8×8 checkerboard in the
//! board colours and the verdict colours.
//!
//! Without Chromium the test says "skipped: chromium not installed" and passes, unless
//! `FEERIE_REQUIRE_CHROMIUM=1` (set by `.ci/run`), where it fails.

use assert_cmd::Command;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

const LIGHT: [u8; 3] = [0xf0, 0xd9, 0xb5];
const DARK: [u8; 3] = [0xb5, 0x88, 0x63];
const UNUSED: [u8; 3] = [0xfa, 0xf7, 0xf0];
const WOOD: [u8; 3] = [0xee, 0xd5, 0xa0];
const RIVER: [u8; 3] = [0xcf, 0xe3, 0xea];
const SOUND: [u8; 3] = [0x2e, 0x7d, 0x32];
const BAD: [u8; 3] = [0xc6, 0x28, 0x28];
const UNSUPPORTED: [u8; 3] = [0x75, 0x75, 0x75];

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium, or `None` after printing why the test is skipped; panics when Chromium is
/// required (`FEERIE_REQUIRE_CHROMIUM=1`) and missing.
fn browser_or_skip() -> Option<PathBuf> {
    let b = chromium();
    if b.is_none() {
        if std::env::var("FEERIE_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1") {
            panic!("chromium is not installed, and FEERIE_REQUIRE_CHROMIUM=1 requires it (Debian: apt-get install chromium)");
        }
        // Written to the real standard error, past the test harness's capture, so that it shows.
        let _ = writeln!(std::io::stderr(), "skipped: chromium not installed");
    }
    b
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("feerie-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary folder");
    d
}

/// Runs headless Chromium with `args` on `page`; kills it after 90 s.
fn headless(browser: &Path, profile: &Path, args: &[&str], page: &Path) -> Output {
    let url = format!("file://{}", page.display());
    let mut child = std::process::Command::new(browser)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    // Read the output on threads so that a full pipe never blocks Chromium.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let t_out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    let t_err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(90);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for chromium") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output { status, stdout: t_out.join().unwrap_or_default(), stderr: t_err.join().unwrap_or_default() }
}

fn write_report(dir: &Path, extra: &[&str]) -> PathBuf {
    let out = dir.join("report.html");
    let mut cmd = Command::cargo_bin("feerie").expect("feerie binary");
    cmd.args(["report", "tests/data/html", "--jobs", "2", "-o"]).arg(&out).args(extra);
    // Cooked, invalid and unsupported problems: exit 1.
    cmd.assert().code(1);
    out
}

#[test]
fn report_dom_in_chromium() {
    let Some(browser) = browser_or_skip() else { return };
    let dir = scratch("dom");
    let page = write_report(&dir, &[]);
    let out = headless(&browser, &dir.join("profile"), &["--dump-dom"], &page);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let dom = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(dom.contains("<h1>feerie report</h1>"), "{dom}");
    // Eight diagrams: one per twin of the chess problems, the unsupported one, Xiangqi and
    // Cheskers; none for the invalid document.
    assert_eq!(dom.matches("<svg").count(), 8);
    assert_eq!(dom.matches("class=\"board chess\"").count(), 6);
    assert_eq!(dom.matches("class=\"board xiangqi\"").count(), 1);
    assert_eq!(dom.matches("class=\"board cheskers\"").count(), 1);
    assert_eq!(dom.matches("class=\"dark\"").count(), 7 * 32);
    // Verdicts, in the summary and at each problem.
    for (class, word, n) in
        [("v-sound", "sound", 6), ("v-cooked", "cooked", 1), ("v-invalid", "invalid", 1), ("v-unsupported", "unsupported", 1)]
    {
        let badge = format!("<span class=\"verdict {class}\">{word}</span>");
        // Count table + index rows + the problem heading and twin panels.
        assert!(dom.matches(&badge).count() > n, "{badge}");
    }
    assert!(dom.contains(
        "<tr class=\"count\" data-verdict=\"sound\"><td><span class=\"verdict v-sound\">sound</span></td><td class=\"n\">6</td></tr>"
    ));
    // The Cheskers problem solved, in its notation: a zugzwang, the win by a king's jump.
    assert!(dom.contains("   1.a3-b4 ! zugzwang.\n      1...Kh8-g7\n          2.Kh6xf8 #"), "{dom}");
    // The Xiangqi problem solved: its tree in ICCS, checks and the no-move mate marked.
    assert!(dom.contains("   1.g7e7 + !\n      1...c5e7\n          2.d8e8 +"), "{dom}");
    assert!(dom.contains(
        "<tr class=\"count\" data-verdict=\"cooked\"><td><span class=\"verdict v-cooked\">cooked</span></td><td class=\"n\">1</td></tr>"
    ));
    // The solution as `feerie solve` prints it, the stated one, the invalid document's message.
    assert!(dom.contains("   1.Qa1-c1 ! threat:\n          2.Qc1-c3 #"));
    assert!(dom.contains("verdict: cooked (2 found, 1 intended; cooks: Rd2-d8)"));
    assert!(dom.contains("<pre class=\"stated\">   1.Qa1-c1 ! threat:"));
    assert!(dom.contains("line 25, column 16: square 'i9' is off the board"));
    // Links from the summary to each problem and twin.
    for a in ["p1-a", "p2-a", "p3-a", "p4-a", "p4-b", "p5-a", "p6-a", "p7-a"] {
        assert!(dom.contains(&format!("<a href=\"#{a}\">{a}</a>")), "{a}");
        assert!(dom.contains(&format!("id=\"{a}\"")), "{a}");
    }
    // Reserves beside the Réserve diagram, the fairy piece as its code, the Xiangqi pieces.
    assert!(dom.contains("class=\"reserves\""));
    assert!(dom.contains("<title>white grasshopper</title>"));
    assert!(dom.contains("<title>red chariot</title>"));
    // Texts from the file are escaped: no script or bold element came from the authors or award.
    assert!(!dom.contains("<script"));
    assert!(!dom.contains("<b>"));
    assert!(dom.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; Sons"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An RGB image.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Image {
    fn open(path: &Path) -> Image {
        let mut decoder = png::Decoder::new(std::fs::File::open(path).expect("screenshot"));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().expect("PNG header");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("PNG frame");
        let channels = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Indexed => panic!("indexed PNG after expansion"),
        };
        let rgb = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|c| if channels >= 3 { [c[0], c[1], c[2]] } else { [c[0], c[0], c[0]] })
            .collect();
        Image { width: info.width as usize, height: info.height as usize, rgb }
    }
    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        self.rgb[y * self.width + x]
    }
    fn count(&self, c: [u8; 3]) -> usize {
        self.rgb.iter().filter(|p| near(**p, c)).count()
    }
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
}

#[test]
fn report_screenshot_in_chromium() {
    let Some(browser) = browser_or_skip() else { return };
    let dir = scratch("png");
    let page = write_report(&dir, &[]);
    let shot = dir.join("shot.png");
    let out = headless(&browser, &dir.join("profile"), &[&format!("--screenshot={}", shot.display()), "--window-size=1200,5000"], &page);
    assert!(out.status.success() && shot.is_file(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let img = Image::open(&shot);
    assert_eq!((img.width, img.height), (1200, 5000));

    // The first diagram: the topmost row with board colours is its top edge, a8 (light) its
    // top-left square.
    let is_board = |p: [u8; 3]| near(p, LIGHT) || near(p, DARK);
    let y0 =
        (0..img.height).find(|&y| (0..img.width).filter(|&x| is_board(img.at(x, y))).count() > 100).expect("no diagram in the screenshot");
    let x0 = (0..img.width).find(|&x| is_board(img.at(x, y0 + 2))).expect("left edge of the board");
    // The square size: the run of a8's colour along a row near its top.
    let first = img.at(x0, y0 + 2);
    assert!(near(first, LIGHT), "a8 should be light, found {first:?}");
    let run = (x0..img.width).take_while(|&x| near(img.at(x, y0 + 2), LIGHT)).count();
    assert!((36..=44).contains(&run), "square size {run}");
    let s = 40;
    // Every square, sampled near its top-left corner (away from the piece glyphs), alternates.
    for rank in 0..8 {
        for file in 0..8 {
            let p = img.at(x0 + file * s + 4, y0 + rank * s + 4);
            let want = if (file + rank) % 2 == 0 { LIGHT } else { DARK };
            assert!(near(p, want), "square {}{}: {p:?}, expected {want:?}", (b'a' + file as u8) as char, 8 - rank);
        }
    }
    // Nothing of the board beyond its eighth file and rank.
    assert!(!is_board(img.at(x0 + 8 * s + 4, y0 + 4)));
    assert!(!is_board(img.at(x0 + 4, y0 + 8 * s + 4)));
    // Some squares hold pieces: a glyph covers the centre of a1 (the white queen) and a5 (the
    // black king), while the empty h1 is plain.
    let centre = |file: usize, rank_from_top: usize| img.at(x0 + file * s + s / 2, y0 + rank_from_top * s + s / 2 + 4);
    assert!(!near(centre(0, 3), DARK), "black king on a5 not drawn");
    assert!(near(centre(7, 7), LIGHT), "h1 should be empty and light");

    // Verdict colours: badges for sound (green), cooked and invalid (red), unsupported (grey).
    assert!(img.count(SOUND) > 500, "green verdicts");
    assert!(img.count(BAD) > 500, "red verdicts");
    assert!(img.count(UNSUPPORTED) > 300, "grey verdicts");
    // The Xiangqi board (wood and river) and the Cheskers board (unused light squares).
    assert!(img.count(WOOD) > 20_000, "xiangqi board");
    assert!(img.count(RIVER) > 5_000, "xiangqi river");
    assert!(img.count(UNUSED) > 20_000, "cheskers light squares");
    let _ = std::fs::remove_dir_all(&dir);
}
