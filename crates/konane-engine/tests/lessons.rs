//! The tutorial's boards in `web/lessons.json` show what their steps say they show: every
//! goal move is legal, a forced move is the only one, a game-ending move ends the game, and
//! a winning move wins (by the exact solver) while the greedy capture loses.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Color, Move, Opening, Phase, Size, Square, with_position};
use konane_engine::{ProofTable, Solver};
use serde_json::Value;

/// The steps of the tutorial, in order.
const IDS: [&str; 12] = [
    "board",
    "black-removal",
    "white-removal",
    "single-jump",
    "double-jump",
    "stop-early",
    "no-turn",
    "must-jump",
    "game-end",
    "mobility",
    "safe-jumps",
    "first-game",
];

const FIELDS: [&str; 6] = ["id", "position", "opening", "goal", "check", "turn"];

/// One step of `lessons.json`, read and parsed.
struct Step {
    id: String,
    text: String,
    pos: AnyPosition,
    /// `None` for `"any"`.
    goal: Option<Vec<Move>>,
    check: String,
    turn: Option<Square>,
}

impl Step {
    fn size(&self) -> Size {
        self.pos.size()
    }

    fn goal(&self) -> &[Move] {
        self.goal
            .as_deref()
            .unwrap_or_else(|| panic!("step {}: needs a list of goal moves", self.id))
    }

    fn legal(&self) -> Vec<Move> {
        self.pos.legal_moves()
    }

    fn after(&self, m: Move) -> AnyPosition {
        let mut p = self.pos;
        p.play(m)
            .unwrap_or_else(|e| panic!("step {}: {} is illegal: {e}", self.id, self.mt(m)));
        p
    }

    fn mt(&self, m: Move) -> String {
        self.pos.move_text(m)
    }

    fn texts(&self, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|&m| self.mt(m)).collect()
    }
}

fn load() -> Vec<Step> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/lessons.json");
    let json = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let root: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{path}: {e}"));
    let root = root.as_object().expect("lessons.json: an object");
    assert_eq!(
        root.keys().collect::<Vec<_>>(),
        ["steps"],
        "lessons.json: only `steps` at the top"
    );
    let steps = root["steps"]
        .as_array()
        .expect("lessons.json: `steps` is a list");
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| parse_step(i, s))
        .collect()
}

fn parse_step(i: usize, s: &Value) -> Step {
    let obj = s
        .as_object()
        .unwrap_or_else(|| panic!("step #{i}: not an object"));
    let field = |name: &str| -> &str {
        obj.get(name)
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("step #{i}: `{name}` missing or not a string"))
    };
    let id = field("id").to_string();
    for key in obj.keys() {
        assert!(
            FIELDS.contains(&key.as_str()),
            "step {id}: unknown field `{key}`"
        );
    }
    let opening: Opening = field("opening")
        .parse()
        .unwrap_or_else(|e| panic!("step {id}: opening: {e}"));
    assert_eq!(
        opening,
        Opening::CenterOrCorner,
        "step {id}: the tutorial plays center-or-corner"
    );
    let text = field("position").to_string();
    let pos = AnyPosition::parse(&text, opening)
        .unwrap_or_else(|e| panic!("step {id}: position {text:?}: {e}"));
    assert_eq!(
        pos.to_string(),
        text,
        "step {id}: position text is not canonical"
    );
    let goal = match &obj["goal"] {
        Value::String(s) if s == "any" => None,
        Value::Array(list) => {
            assert!(!list.is_empty(), "step {id}: empty goal list");
            let moves: Vec<Move> = list
                .iter()
                .map(|v| {
                    let t = v
                        .as_str()
                        .unwrap_or_else(|| panic!("step {id}: goal {v} is not a string"));
                    let m = pos
                        .size()
                        .parse_move(t)
                        .unwrap_or_else(|e| panic!("step {id}: goal {t}: {e}"));
                    // The page compares goal strings with the server's move texts.
                    assert_eq!(
                        pos.move_text(m),
                        t,
                        "step {id}: goal {t} is not in canonical notation"
                    );
                    pos.check(m)
                        .unwrap_or_else(|e| panic!("step {id}: goal {t} is illegal: {e}"));
                    m
                })
                .collect();
            let distinct: BTreeSet<Move> = moves.iter().copied().collect();
            assert_eq!(distinct.len(), moves.len(), "step {id}: repeated goal move");
            Some(moves)
        }
        other => panic!("step {id}: goal must be \"any\" or a list of moves, not {other}"),
    };
    let check = field("check").to_string();
    assert!(
        ["any", "only", "legal", "ends", "wins", "wins-not-greedy"].contains(&check.as_str()),
        "step {id}: unknown check {check:?}"
    );
    assert_eq!(
        check == "any",
        goal.is_none(),
        "step {id}: goal \"any\" goes with check \"any\" and only with it"
    );
    let turn = obj.get("turn").map(|v| {
        let t = v
            .as_str()
            .unwrap_or_else(|| panic!("step {id}: turn is not a string"));
        pos.size()
            .parse_square(t)
            .unwrap_or_else(|e| panic!("step {id}: turn {t}: {e}"))
    });
    Step {
        id,
        text,
        pos,
        goal,
        check,
        turn,
    }
}

fn step<'a>(steps: &'a [Step], id: &str) -> &'a Step {
    steps
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no step {id}"))
}

fn captures(size: Size, m: Move) -> usize {
    m.jump_shape(size).map_or(0, |(_, k)| k)
}

/// One step of a jump: (rows, columns), each -1, 0 or 1.
fn unit(size: Size, m: Move) -> (isize, isize) {
    let d = |a: usize, b: usize| (b as isize - a as isize).signum();
    (
        d(size.row(m.from()), size.row(m.to())),
        d(size.col(m.from()), size.col(m.to())),
    )
}

/// The square `k` steps of `(dr, dc)` away from `sq`, if it is on the board.
fn offset(size: Size, sq: Square, (dr, dc): (isize, isize), k: isize) -> Option<Square> {
    let r = size.row(sq) as isize + dr * k;
    let c = size.col(sq) as isize + dc * k;
    if r < 0 || c < 0 {
        return None;
    }
    size.square(r as usize, c as usize)
}

/// The first jump of a jump move: the single-capture stop of the same stone.
fn first_jump(size: Size, m: Move) -> Move {
    let to = offset(size, m.from(), unit(size, m), 2).expect("a jump lands on the board");
    Move::jump(m.from(), to)
}

/// True when the side to move wins with perfect play.
fn wins(table: &ProofTable, pos: &AnyPosition) -> bool {
    let stop = AtomicBool::new(false);
    with_position!(pos, p => Solver::new(table, &stop, u64::MAX).solve(p))
        .expect("no node limit")
        .win
}

/// True when the side to move can make the opponent run out of moves within `plies` of
/// its own plies and the replies between them (`plies` odd: mover, reply, mover, ...).
fn wins_within(pos: &AnyPosition, plies: u32) -> bool {
    plies > 0
        && pos.legal_moves().into_iter().any(|m| {
            let mut a = *pos;
            a.play(m).unwrap();
            a.legal_moves().into_iter().all(|r| {
                let mut b = a;
                b.play(r).unwrap();
                plies >= 3 && wins_within(&b, plies - 2)
            })
        })
}

#[test]
fn the_steps_are_the_tutorials_in_order() {
    let steps = load();
    let ids: Vec<&str> = steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, IDS, "lessons.json: the step ids, in order");
}

#[test]
fn the_opening_steps_show_the_start_of_a_game() {
    let steps = load();
    let start = AnyPosition::start(Size::DEFAULT, Opening::CenterOrCorner);
    for id in ["board", "black-removal", "first-game"] {
        assert_eq!(
            step(&steps, id).pos,
            start,
            "step {id}: the 8x8 start position"
        );
    }
    let white = step(&steps, "white-removal");
    let mut after_d5 = start;
    after_d5.play_text("d5").unwrap();
    assert_eq!(
        white.pos, after_d5,
        "step white-removal: 8x8 after Black lifted d5"
    );
    assert_eq!(white.pos.phase(), Phase::WhiteRemoval, "step white-removal");
}

#[test]
fn the_puzzles_look_like_real_games() {
    for s in load().iter().filter(|s| s.check != "any") {
        let size = s.size();
        assert_eq!(size, Size::new(6, 6).unwrap(), "step {}: a 6x6 board", s.id);
        assert_eq!(s.pos.turn(), Color::Black, "step {}: Black to move", s.id);
        assert_eq!(s.pos.phase(), Phase::Jumping, "step {}: jumping", s.id);
        let mut stones = 0;
        for sq in size.all_squares() {
            if let Some(c) = s.pos.stone_at(sq) {
                stones += 1;
                assert_eq!(
                    c,
                    size.start_color(sq),
                    "step {}: a {c} stone on {} cannot get there by jumping",
                    s.id,
                    size.square_name(sq)
                );
            }
        }
        assert!(
            (8..=16).contains(&stones),
            "step {}: {stones} stones, not 8 to 16",
            s.id
        );
        assert!(s.pos.count_moves() > 0, "step {}: Black has a move", s.id);
        assert_eq!(s.turn.is_some(), s.id == "no-turn", "step {}: `turn`", s.id);
    }
}

#[test]
fn only_steps_have_one_legal_move() {
    let steps = load();
    for s in steps.iter().filter(|s| s.check == "only") {
        assert_eq!(
            s.texts(&s.legal()),
            s.texts(s.goal()),
            "step {}: the goal must be the one legal move",
            s.id
        );
    }
    let single = step(&steps, "single-jump");
    assert_eq!(single.check, "only", "step single-jump: check");
    assert_eq!(
        captures(single.size(), single.goal()[0]),
        1,
        "step single-jump: the move captures one stone"
    );
}

#[test]
fn the_forced_move_gives_white_a_new_capture() {
    let steps = load();
    let s = step(&steps, "must-jump");
    assert_eq!(s.check, "only", "step must-jump: check");
    let m = s.goal()[0];
    // The same board with White to move: what White could capture before.
    let (board, _) = s.text.rsplit_once(' ').unwrap();
    let before = AnyPosition::parse(&format!("{board} w"), Opening::CenterOrCorner).unwrap();
    let old: BTreeSet<Move> = before.legal_moves().into_iter().collect();
    let after = s.after(m);
    let new: Vec<Move> = after
        .legal_moves()
        .into_iter()
        .filter(|w| !old.contains(w) && w.captured(s.size()).any(|q| q == m.to()))
        .collect();
    assert!(
        !new.is_empty(),
        "step must-jump: after {} White cannot capture the stone on {}",
        s.mt(m),
        s.size().square_name(m.to())
    );
}

#[test]
fn double_jump_and_stop_early_share_a_stone() {
    let steps = load();
    let double = step(&steps, "double-jump");
    let early = step(&steps, "stop-early");
    for s in [double, early] {
        assert_eq!(s.check, "legal", "step {}: check", s.id);
        assert_eq!(s.goal().len(), 1, "step {}: one goal move", s.id);
    }
    let size = double.size();
    let m = double.goal()[0];
    assert_eq!(
        captures(size, m),
        2,
        "step double-jump: {} must capture two stones",
        double.mt(m)
    );
    let stop = first_jump(size, m);
    assert!(
        double.pos.check(stop).is_ok(),
        "step double-jump: stopping after one jump ({}) must be legal",
        double.mt(stop)
    );
    let n = double.legal().len();
    assert!(
        (2..=3).contains(&n),
        "step double-jump: {n} legal moves, want 2 or 3"
    );
    assert_eq!(
        early.pos, double.pos,
        "step stop-early: the double-jump position"
    );
    assert_eq!(
        early.goal(),
        [stop],
        "step stop-early: the goal is {}, the first jump of {}",
        double.mt(stop),
        double.mt(m)
    );
}

#[test]
fn no_turn_shows_a_turn_that_is_not_a_move() {
    let steps = load();
    let s = step(&steps, "no-turn");
    assert_eq!(s.check, "legal", "step no-turn: check");
    let size = s.size();
    let turn = s.turn.expect("step no-turn: a `turn` square");
    let from = s.goal()[0].from();
    let own: BTreeSet<Move> = s.legal().into_iter().filter(|m| m.from() == from).collect();
    let goal: BTreeSet<Move> = s.goal().iter().copied().collect();
    assert_eq!(
        goal,
        own,
        "step no-turn: the goal is every legal move of the stone on {}",
        size.square_name(from)
    );
    assert!(
        own.iter().all(|m| m.to() != turn),
        "step no-turn: {} must not be reachable",
        size.square_name(turn)
    );
    // After the first jump the stone could jump again at a right angle, if turns were allowed.
    let turns = own.iter().any(|&m| {
        let landing = first_jump(size, m).to();
        let (dr, dc) = unit(size, m);
        [(dc, dr), (-dc, -dr)].into_iter().any(|side| {
            offset(size, landing, side, 1).and_then(|q| s.pos.stone_at(q)) == Some(Color::White)
                && offset(size, landing, side, 2) == Some(turn)
                && s.pos.stone_at(turn).is_none()
        })
    });
    assert!(
        turns,
        "step no-turn: no jump of the stone on {} could turn to {} over a white stone",
        size.square_name(from),
        size.square_name(turn)
    );
}

#[test]
fn game_end_goals_are_exactly_the_moves_that_leave_white_stuck() {
    let steps = load();
    for s in steps.iter().filter(|s| s.check == "ends") {
        let mut others = 0;
        for m in s.legal() {
            let replies = s.after(m).count_moves();
            if s.goal().contains(&m) {
                assert_eq!(
                    replies,
                    0,
                    "step {}: after {} White still has a move",
                    s.id,
                    s.mt(m)
                );
            } else {
                assert!(
                    replies > 0,
                    "step {}: {} also leaves White without a move, so it belongs in the goal",
                    s.id,
                    s.mt(m)
                );
                others += 1;
            }
        }
        assert!(others >= 2, "step {}: {others} other moves, want 2+", s.id);
    }
    assert_eq!(
        step(&steps, "game-end").check,
        "ends",
        "step game-end: check"
    );
}

#[test]
fn winning_goals_are_exactly_the_winning_moves() {
    let steps = load();
    let table = ProofTable::new(16);
    for s in steps
        .iter()
        .filter(|s| s.check == "wins" || s.check == "wins-not-greedy")
    {
        let size = s.size();
        let legal = s.legal();
        let winning: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !wins(&table, &s.after(m)))
            .collect();
        let goal: BTreeSet<Move> = s.goal().iter().copied().collect();
        assert_eq!(
            goal,
            winning.iter().copied().collect(),
            "step {}: goal {:?}, but the winning moves are {:?}",
            s.id,
            s.texts(s.goal()),
            s.texts(&winning)
        );
        assert!(
            winning.len() < legal.len(),
            "step {}: some move must lose",
            s.id
        );
        if s.check == "wins-not-greedy" {
            assert!(
                (3..=7).contains(&legal.len()),
                "step {}: {} legal moves, want 3 to 7",
                s.id,
                legal.len()
            );
            let most = legal.iter().map(|&m| captures(size, m)).max().unwrap();
            let goal_most = goal.iter().map(|&m| captures(size, m)).max().unwrap();
            assert!(
                most > goal_most,
                "step {}: no move captures more than the goal ({goal_most})",
                s.id
            );
            for &m in legal.iter().filter(|&&m| captures(size, m) == most) {
                assert!(
                    !goal.contains(&m) && wins(&table, &s.after(m)),
                    "step {}: the greedy {} must lose",
                    s.id,
                    s.mt(m)
                );
            }
            assert!(
                wins_within(&s.pos, 7),
                "step {}: Black should win within 7 plies",
                s.id
            );
        } else {
            assert!(
                legal.len() >= 4,
                "step {}: {} legal moves, want 4+",
                s.id,
                legal.len()
            );
        }
    }
    assert_eq!(
        step(&steps, "mobility").check,
        "wins-not-greedy",
        "step mobility"
    );
    assert_eq!(step(&steps, "safe-jumps").check, "wins", "step safe-jumps");
}

#[test]
fn safe_jumps_win_at_once_against_every_reply() {
    let steps = load();
    let s = step(&steps, "safe-jumps");
    for &m in s.goal() {
        let after = s.after(m);
        assert!(
            after.count_moves() > 0,
            "step safe-jumps: after {} White has a reply",
            s.mt(m)
        );
        for r in after.legal_moves() {
            let mut b = after;
            b.play(r).unwrap();
            assert!(
                wins_within(&b, 1),
                "step safe-jumps: after {} {} Black cannot leave White stuck",
                s.mt(m),
                after.move_text(r)
            );
        }
    }
}
