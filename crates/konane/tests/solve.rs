//! `konane solve` run as a user runs it: threads, resuming and re-checking change no result.

use std::process::Command;

/// `konane solve` with these arguments, as a user runs it, whether or not it succeeds.
fn solve_output(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_konane"))
        .arg("solve")
        .args(args)
        .output()
        .expect("the konane binary runs")
}

/// The output of a `konane solve` that must succeed.
fn solve(args: &[&str]) -> String {
    let o = solve_output(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh folder of this test process for the files of a run.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("konane-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The table's rows as `removal reply winner`, and the verdict line.
fn rows(out: &str) -> (Vec<String>, String) {
    let mut lines = out.lines().skip_while(|l| !l.starts_with("removal"));
    lines.next();
    let rows = lines
        .by_ref()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .collect();
    let verdict = lines.find(|l| l.contains("wins")).unwrap_or_default();
    (rows, verdict.to_string())
}

#[test]
fn more_threads_than_positions_prove_the_same_table() {
    for opening in ["center-or-corner", "center"] {
        let one = rows(&solve(&[
            "--size",
            "5x6",
            "--opening",
            opening,
            "--threads",
            "1",
        ]));
        // 5x6 has five distinct positions or fewer: the spare threads help with running ones.
        let many = rows(&solve(&[
            "--size",
            "5x6",
            "--opening",
            opening,
            "--threads",
            "7",
        ]));
        assert_eq!(one, many, "{opening}");
        assert!(one.0.len() >= 4, "{one:?}");
        assert!(one.1.contains("White wins"), "{one:?}");
    }
}

#[test]
fn a_run_without_a_terminal_says_each_position_it_proves() {
    let dir = scratch("solve-said");
    let log = dir.join("5x6.txt");
    let log_arg = log.to_str().unwrap();
    let proven = |args: &[&str]| {
        let o = solve_output(args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let lines: Vec<String> = err
            .lines()
            .filter_map(|l| l.strip_prefix("proven: "))
            .map(str::to_string)
            .collect();
        for l in &lines {
            assert!(
                l.contains(": white wins (") || l.contains(": black wins ("),
                "{l}"
            );
        }
        lines
    };
    // Output into a pipe has no bar: each of the five distinct positions gets its line.
    let all = proven(&["--size", "5x6", "--threads", "2", "--resume", log_arg]);
    let boards: std::collections::HashSet<&str> = all
        .iter()
        .map(|l| l.split(": ").next().unwrap_or_default())
        .collect();
    assert_eq!((all.len(), boards.len()), (5, 5), "{all:?}");
    // A resumed run says only what it proves itself.
    let finished = std::fs::read_to_string(&log).unwrap();
    let kept: Vec<&str> = finished.lines().take(2).collect();
    std::fs::write(&log, kept.join("\n") + "\n").unwrap();
    let rest = proven(&["--size", "5x6", "--threads", "2", "--resume", log_arg]);
    assert_eq!(rest.len(), 3, "{rest:?}");
    // The same positions and winners as before (the nodes and times differ).
    let head = |l: &String| l.split(" (").next().unwrap_or_default().to_string();
    let before: std::collections::HashSet<String> = all.iter().map(head).collect();
    assert!(
        rest.iter().all(|l| before.contains(&head(l))),
        "{rest:?} {all:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_gives_the_rows_of_an_unbroken_one() {
    let dir = scratch("solve");
    let log = dir.join("5x6.txt");
    let log_arg = log.to_str().unwrap();
    let unbroken = rows(&solve(&["--size", "5x6", "--threads", "2"]));

    solve(&["--size", "5x6", "--threads", "2", "--resume", log_arg]);
    let finished = std::fs::read_to_string(&log).unwrap();
    assert_eq!(finished.lines().count(), 5, "{finished}");
    // As if the run had been stopped after two positions.
    let kept: Vec<&str> = finished.lines().take(2).collect();
    std::fs::write(&log, kept.join("\n") + "\n").unwrap();
    let resumed = solve(&["--size", "5x6", "--threads", "2", "--resume", log_arg]);
    assert_eq!(rows(&resumed), unbroken);
    let after = std::fs::read_to_string(&log).unwrap();
    assert_eq!(after.lines().count(), 5, "{after}");
    assert!(after.starts_with(&(kept.join("\n") + "\n")), "{after}");

    // Everything in the log: nothing left to solve, the same rows, and they survive a re-check.
    let again = solve(&["--size", "5x6", "--resume", log_arg, "--recheck"]);
    assert_eq!(rows(&again), unbroken);
    assert!(
        again.contains("Every result proven a second time"),
        "{again}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), after);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_tells_an_engine_the_openings_from_the_first_move() {
    use konane_core::{AnyPosition, Opening, with_position};
    use konane_engine::ProofTable;

    let dir = scratch("book");
    // 5x5: Black wins by removing a5, e5, c3, a1 or e1 (docs/solved.md); 4x5: White wins.
    for (size, winning) in [
        ("5x5", &["a5", "e5", "c3", "a1", "e1"][..]),
        ("4x5", &[][..]),
    ] {
        let file = dir.join(format!("{size}.proofs"));
        let file_arg = file.to_str().unwrap();
        solve(&["--size", size, "--threads", "2", "--checkpoint", file_arg]);
        let table = ProofTable::new(1);
        // Every proof of such small boards is cheap: the openings' are there all the same.
        assert!(table.load(&std::fs::read(&file).unwrap()).unwrap() > 0);
        let start = AnyPosition::start(size.parse().unwrap(), Opening::CenterOrCorner);
        let probe = |p: &AnyPosition| with_position!(p, q => table.probe(q)).expect("proven");
        let first = probe(&start);
        assert_eq!(first.win, !winning.is_empty(), "{size}");
        if let Some(removal) = first.best {
            assert!(
                winning.contains(&start.move_text(removal).as_str()),
                "{size}"
            );
        }
        for removal in start.legal_moves() {
            let mut after = start;
            after.play(removal).unwrap();
            let reply = probe(&after);
            let text = start.move_text(removal);
            assert_eq!(
                reply.win,
                !winning.contains(&text.as_str()),
                "{size} {text}"
            );
            if let Some(best) = reply.best {
                let mut next = after;
                next.play(best).unwrap();
                assert!(!probe(&next).win, "{size} {text} {}", after.move_text(best));
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forged_result_in_the_log_is_refused_by_the_recheck() {
    use konane_core::{AnyPosition, Opening};

    let dir = scratch("forged");
    let log = dir.join("5x6.txt");
    let log_arg = log.to_str().unwrap();
    let args = ["--size", "5x6", "--table-mb", "64", "--resume", log_arg];
    solve(&args);
    let honest = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = honest.lines().collect();
    assert!(
        lines.iter().any(|l| l.contains(";win;")) && lines.iter().any(|l| l.contains(";loss;"))
    );
    // What a collision could write: a loss claimed won with a legal move, a win claimed lost.
    for (i, line) in lines.iter().enumerate() {
        let f: Vec<&str> = line.split(';').collect();
        let pos = AnyPosition::parse(f[0], Opening::CenterOrCorner).unwrap();
        let forged = if f[1] == "win" {
            format!("{};loss;-;{};{}", f[0], f[3], f[4])
        } else {
            let m = pos.move_text(pos.legal_moves()[0]);
            format!("{};win;{m};{};{}", f[0], f[3], f[4])
        };
        let mut text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        text[i] = forged.clone();
        std::fs::write(&log, text.join("\n") + "\n").unwrap();
        let without = solve(&args);
        assert!(!without.contains("proven a second time"), "{without}");
        let o = solve_output(&[&args[..], &["--recheck"]].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{forged} survived the re-check");
        assert!(
            err.contains("the re-check proved the other result"),
            "{forged}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_recheck_keeps_its_own_checkpoint_and_replays_each_line_through_the_core() {
    use konane_core::{AnyPosition, Game, Opening};

    let dir = scratch("recheck");
    let (log, own) = (dir.join("5x6.txt"), dir.join("5x6.recheck.proofs"));
    let (log_arg, own_arg) = (log.to_str().unwrap(), own.to_str().unwrap());
    let args = ["--size", "5x6", "--table-mb", "64", "--resume", log_arg];
    let recheck = [&args[..], &["--recheck", "--recheck-checkpoint", own_arg]].concat();
    let first = solve(&recheck);
    assert!(own.exists(), "the re-check saved its checkpoint");
    let again = solve(&recheck);
    assert!(
        again.contains("proofs of earlier re-checks loaded"),
        "{again}"
    );
    assert_eq!(rows(&again), rows(&first));

    // Each replayed line is a whole game the loser of its position loses, played again here.
    let replays: Vec<&str> = first
        .lines()
        .filter(|l| l.starts_with("re-check:"))
        .collect();
    assert_eq!(
        replays.len(),
        std::fs::read_to_string(&log).unwrap().lines().count()
    );
    for line in replays {
        let rest = line.trim_start_matches("re-check: ");
        let (position, rest) = rest.split_once(" is lost for ").unwrap();
        let (_, moves) = rest.split_once("replayed by the core: ").unwrap();
        let moves = moves.split(" (").next().unwrap();
        let start = AnyPosition::parse(position, Opening::CenterOrCorner).unwrap();
        let mut game = Game::from_position(start);
        for m in moves.split_whitespace() {
            game.play_text(m).unwrap();
        }
        assert_eq!(
            game.position().winner(),
            Some(start.turn().opponent()),
            "{line}"
        );
    }

    // The first run's checkpoint cannot serve as the re-check's, however it is spelled.
    std::fs::create_dir(dir.join("sub")).unwrap();
    let roundabout = dir.join("sub").join("..").join(own.file_name().unwrap());
    for same in [own_arg, roundabout.to_str().unwrap()] {
        let o = solve_output(
            &[
                &args[..],
                &[
                    "--recheck",
                    "--checkpoint",
                    own_arg,
                    "--recheck-checkpoint",
                    same,
                ],
            ]
            .concat(),
        );
        assert!(!o.status.success(), "{same}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("a checkpoint of its own"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_log_is_refused_by_its_line_and_left_as_it_was() {
    let dir = scratch("damaged");
    let log = dir.join("5x6.txt");
    let log_arg = log.to_str().unwrap();
    let args = ["--size", "5x6", "--table-mb", "64", "--resume", log_arg];
    solve(&args);
    let honest = std::fs::read_to_string(&log).unwrap();
    let first = honest.lines().next().unwrap();
    let f: Vec<&str> = first.split(';').collect();
    let another_board = "....../....../....../....../....../...... b";
    let pos = konane_core::AnyPosition::parse(f[0], konane_core::Opening::CenterOrCorner).unwrap();
    let legal = pos.legal_move_texts();
    // A move in the board's notation that is not legal here.
    let illegal = ["a1-a3", "a1-c1", "b1-b3", "b1-d1", "a2-a4", "a2-c2"]
        .into_iter()
        .find(|m| !legal.iter().any(|l| l == m))
        .unwrap();
    let damaged = [
        format!("{};maybe;-;{};{}", f[0], f[3], f[4]),
        format!("{};win;z9-z7;{};{}", f[0], f[3], f[4]),
        format!("{};win;{illegal};{};{}", f[0], f[3], f[4]),
        format!("{};win;-;many;{}", f[0], f[4]),
        format!("{};{};{};{}", f[0], f[1], f[2], f[3]),
        format!("{another_board};loss;-;1;0.000"),
        "not a position;loss;-;1;0.000".to_string(),
    ];
    for bad in damaged {
        let text = format!("{honest}{bad}\n");
        std::fs::write(&log, &text).unwrap();
        let o = solve_output(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{bad} was taken");
        let line = honest.lines().count() + 1;
        assert!(
            err.contains(&format!("line {line}: not a solve result of this board")),
            "{bad}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&log).unwrap(), text, "{bad}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_says_whether_its_keys_are_exact_and_refuses_a_checkpoint_of_hashed_ones() {
    let dir = scratch("keys");
    let file = dir.join("keys.proofs");
    let log = dir.join("keys.txt");
    let (file_arg, log_arg) = (file.to_str().unwrap(), log.to_str().unwrap());
    let keys = |args: &[&str]| {
        let out = solve(args);
        let line = out
            .lines()
            .find(|l| l.starts_with("Keys: "))
            .map(str::to_string);
        line.unwrap_or_else(|| panic!("no keys line in {out}"))
    };
    let exact = keys(&["--size", "5x5", "--table-mb", "1"]);
    assert!(exact.starts_with("Keys: exact"), "{exact}");
    // A few stones on 6x8 and 8x8 (on their own colours): proven at once, keyed as their
    // boards are.
    let six_by_eight = "b......./......../......../......../......../......w. b";
    let small = keys(&["--position", six_by_eight, "--table-mb", "4"]);
    assert!(small.starts_with("Keys: hashed"), "{small}");
    assert!(small.contains("--table-mb 8 or more"), "{small}");
    assert!(keys(&["--position", six_by_eight, "--table-mb", "8"]).starts_with("Keys: exact"));
    let eight = "b......./......../......../......../......../......../......../......w. b";
    let large = keys(&["--position", eight]);
    assert!(large.contains("64 squares or more"), "{large}");
    // A White stone on h1, a Black square: no game gets there, whatever the table's size.
    let off = "b......./......../......../......../......../.......w b";
    let odd = keys(&["--position", off, "--table-mb", "4"]);
    assert!(
        odd.contains("a stone stands on a square of the other colour"),
        "{odd}"
    );
    // A checkpoint keeps exact keys only: each of these runs is refused before it writes
    // its checkpoint or its log.
    for (position, mb, why) in [
        (six_by_eight, "4", "--table-mb 8 or more"),
        (eight, "8", "64 squares or more"),
        (off, "8", "other colour"),
    ] {
        for flag in ["--checkpoint", "--recheck-checkpoint"] {
            let mut args = vec![
                "--position",
                position,
                "--table-mb",
                mb,
                "--resume",
                log_arg,
            ];
            args.extend([flag, file_arg]);
            if flag == "--recheck-checkpoint" {
                args.push("--recheck");
            }
            let o = solve_output(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!o.status.success(), "{position} {flag}");
            assert!(err.contains("a checkpoint keeps exact keys only"), "{err}");
            assert!(err.contains(why), "{err}");
            assert!(!file.exists() && !log.exists(), "{position} {flag}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
