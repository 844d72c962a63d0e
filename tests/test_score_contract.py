"""`companion score` keeps its contract at the edges (scoring-contract.md): a result, or exit 2 with
one `error:` line of at most a few hundred characters; never a traceback, whatever the input."""
from __future__ import annotations

import copy
import io
import json
import random
import re
import subprocess
import sys

import pytest

from companion import cli
from companion.games import GAME_IDS, cli_name
from tests.conftest import ROOT, SHARED, assert_refused, examples, needs_shared, run_score

#: A rule text's key (`princes_of_the_renaissance.city.venice`) in an error: the contract's words are wanted.
MESSAGE_KEY = re.compile(rf"\b({'|'.join(GAME_IDS)})\.\w")
LONGEST = 300  # "one line, at most a few hundred characters" (issue 15)
#: The fuzzer's games: every registered game with public examples to mutate (../shared/examples).
GAMES = [cli_name(game_id) for game_id in GAME_IDS if examples(cli_name(game_id))]


def one_line_error(err: str) -> bool:
    return (err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1
            and len(err) <= LONGEST + 1 and err[:-1].isprintable() and "Traceback" not in err)


def in_process(game: str, data: bytes) -> tuple[int, str, str]:
    """`companion score GAME -` with `data` on standard input, in this process (fast enough to fuzz)."""
    streams = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    try:
        status = cli.main(["score", game, "-"])
        return status, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams


NASTY_VALUES = [None, True, False, 0, -1, 1.5, 7, 10 ** 2150, -(10 ** 40), 1e308, "", "\n", "a\nb", "\ud800",
                "\u2028", "\x1b[2J", "x" * 20_000, [], {}, [[[[[[[[[[1]]]]]]]]]], {"a\nb": 1}, ["\ud800"] * 3]
NASTY_KEYS = ["a\nb", "\ud800", "k" * 5000, "", "players", "id", "\r", "é"]


def mutate(value, rng: random.Random):
    """One random change somewhere in `value`: a leaf replaced, a key added or removed, a list entry
    repeated."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        roll = rng.random()
        if roll < 0.15:
            del value[key]
        elif roll < 0.3:
            value[rng.choice(NASTY_KEYS)] = rng.choice(NASTY_VALUES)
        elif roll < 0.5:
            value[key] = copy.deepcopy(rng.choice(NASTY_VALUES))
        else:
            value[key] = mutate(value[key], rng)
        return value
    if isinstance(value, list) and value and rng.random() < 0.7:
        i = rng.randrange(len(value))
        roll = rng.random()
        if roll < 0.15:
            value.append(copy.deepcopy(value[i]))
        elif roll < 0.35:
            value[i] = copy.deepcopy(rng.choice(NASTY_VALUES))
        else:
            value[i] = mutate(value[i], rng)
        return value
    return copy.deepcopy(rng.choice(NASTY_VALUES))


def fuzzed(seed: int, count: int):
    rng = random.Random(seed)
    assert len(GAMES) >= 5, "../shared/examples holds no example to fuzz"
    bases = {game: [given for _, given, _ in examples(game)] for game in GAMES}
    for _ in range(count):
        game = rng.choice(GAMES)
        data = copy.deepcopy(rng.choice(bases[game]))
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
        if rng.random() < 0.1:
            text = text[: rng.randrange(len(text) + 1)]  # truncated
        yield game, text.encode("utf-8", "surrogatepass")


@needs_shared
def test_fuzzed_inputs_get_a_result_or_one_short_error_line():
    sys.set_int_max_str_digits(0)  # so the fuzzer can write 10**2150; the command reads it with the default limit
    try:
        cases = list(fuzzed(seed=1302, count=3000))
    finally:
        sys.set_int_max_str_digits(4300)
    scored = 0
    for game, data in cases:
        status, out, err = in_process(game, data)
        assert status in (0, 2), (game, data[:300], err)
        if status == 0:
            assert err == "" and out.endswith("\n") and out.count("\n") == 1, (game, data[:300])
            assert json.loads(out)["game"] == game
            scored += 1
        else:
            assert out == "" and one_line_error(err), (game, data[:300], err)
            assert not MESSAGE_KEY.search(err), err  # fields in the contract's words, never a text key
    assert 0 < scored < len(cases)  # the fuzzer reaches both ends


@pytest.mark.parametrize("payload, field", [
    ({"players": [{"id": "a\nb", "track": 1}, {"id": "a\nb", "track": 2}], "features": []}, "players[1].id"),
    ({"players": [{"id": "\ud800", "track": 1}, {"id": "b", "track": 2}], "features": []}, "players[0].id"),
    ({"players": [{"id": "a", "track": 1, "x\ny": 1}, {"id": "b", "track": 2}], "features": []}, 'players[0]["x\\ny"]'),
    ({"players": [{"id": "a", "track": 10 ** 2150}, {"id": "b", "track": 2}], "features": []}, "players[0].track"),
    ({"players": [{"id": "a", "track": 1}, {"id": "b", "track": 2}], "features": "x" * 100_000}, "features"),
    ({"players": [{"id": "a" * 5000, "track": 1}, {"id": "b", "track": 2}], "features": []}, "players[0].id"),
    ({"players": [{"id": "a", "track": 1}, {"id": "b", "track": 2}], "features": [{}] * 5000}, "features"),
])
def test_edge_inputs_are_refused_on_one_short_line(payload, field):
    sys.set_int_max_str_digits(0)
    try:
        text = json.dumps(payload)
    finally:
        sys.set_int_max_str_digits(4300)
    done = run_score("carcassonne", text)
    assert_refused(done, field)
    assert one_line_error(done.stderr)


def score_shell(script: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})


PYTHON = sys.executable


def test_closed_standard_input_is_a_message():
    done = score_shell(f"exec {PYTHON} -m companion score flanders-1302 <&-")
    assert done.returncode == 2 and one_line_error(done.stderr) and "standard input is closed" in done.stderr


@pytest.mark.parametrize("how", ["< /dev/zero", "/dev/zero"])
def test_an_endless_input_is_cut_at_the_size_cap(how):
    done = score_shell(f"exec {PYTHON} -m companion score flanders-1302 {how}")
    assert done.returncode == 2 and one_line_error(done.stderr) and "larger than" in done.stderr


@needs_shared
def test_closed_standard_output_is_a_message():
    example = next((SHARED / "examples").glob("flanders-1302.*.input.json"))
    done = score_shell(f"exec {PYTHON} -m companion score flanders-1302 {example} >&-")
    assert done.returncode == 1 and one_line_error(done.stderr) and "standard output" in done.stderr


def test_a_number_too_long_to_read_is_a_message():
    done = run_score("flanders-1302", '{"players": [{"id": "blue", "influence_cards": ' + "9" * 5000 + "}]}")
    assert done.returncode == 2 and one_line_error(done.stderr) and "too long" in done.stderr


def test_text_that_is_not_utf8_is_a_message():
    done = subprocess.run([PYTHON, "-m", "companion", "score", "village"], input=b'{"players": "\xff"}',
                          capture_output=True, cwd=ROOT, timeout=30)
    assert done.returncode == 2 and one_line_error(done.stderr.decode()) and "UTF-8" in done.stderr.decode()


def test_the_registry_agrees_with_the_games():
    from companion.games import GAMES, SCORERS, cli_name

    assert all(g.cli_name == cli_name(g.id) for g in GAMES.values())
    assert {name: scorer.game_id for name, scorer in SCORERS.items()} == {g.cli_name: g.id for g in GAMES.values()}


def test_names_read_from_their_line_are_those_of_the_data_file():
    from companion import texts

    for path in texts.data_files():
        resolve = cli._english_texts(path.stem)
        for key, value in texts.load(path)[0].items():
            assert resolve(key) == value["en"], key
