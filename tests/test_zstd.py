"""companion/web/zstd.js, the Zstandard decoder of the phone-alone build (issue 37), run under node:
what Python's `zstandard` makes at levels 1 to 22 comes back byte for byte, whole (decompress) and fed
in awkward chunks (stream), one frame or several with a skippable one between; corrupt and truncated
input throws a short Error, and quickly."""
from __future__ import annotations

import functools
import json
import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
import zstandard

from tests.conftest import ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: zstd.js runs only under node here")

ZSTD_JS = ROOT / "companion" / "web" / "zstd.js"
DRIVER = Path(__file__).with_name("zstd_driver.mjs")
LEVELS = (1, 3, 9, 19, 22)


@functools.cache
def corpus() -> dict[str, bytes]:
    """The kinds of data: empty, 1 byte, short text, text, long runs (RLE blocks), random bytes (raw
    blocks), and ~3 MB of all of these with structured binary between (many blocks, far matches)."""
    rng = random.Random(37)
    words = [bytes(rng.choices(b"abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9))) for _ in range(400)]
    text = b" ".join(rng.choice(words) + (b"\n" if rng.random() < 0.1 else b"") for _ in range(40_000))
    runs = b"z" * 300_000 + b"ab" * 70_000 + bytes(range(256)) * 40
    # blocks whose literals are all "x" (RLE literals): pieces of earlier random bytes, each after an x
    earlier = rng.randbytes(100_000)
    runs += earlier + b"".join(earlier[k:k + 40] + b"x" for k in range(0, 91_000, 13))
    noise = rng.randbytes(300_000)
    table = b"".join(struct.pack("<IHhf", i * 7, i % 300, -(i % 30_000), i / 3) for i in range(100_000))
    mixed = text + noise[:100_000] + runs + table + text[::-1] + noise + text[5_000:200_000] + table[::3]
    return {"empty": b"", "one": b"x", "short": b"a short text, a short text.\n", "text": text,
            "runs": runs, "random": noise, "mixed": mixed}


@functools.cache
def compressed(name: str, level: int, checksum: bool, size: bool) -> bytes:
    options = zstandard.ZstdCompressor(level=level, write_checksum=checksum, write_content_size=size)
    return options.compress(corpus()[name])


def header_size(frame: bytes) -> int:
    """The size of a frame's header with its magic number (3.1.1.1)."""
    fhd = frame[4]
    return 5 + (0 if fhd & 0x20 else 1) + [0, 1, 2, 4][fhd & 3] + [fhd >> 5 & 1, 2, 4, 8][fhd >> 6]


def skippable(payload: bytes, nibble: int = 0) -> bytes:
    return struct.pack("<II", 0x184D2A50 + nibble, len(payload)) + payload


def run(tmp_path: Path, jobs: list[dict], timeout: float = 60) -> list[dict]:
    """The driver's results for jobs whose "input"/"expect" are bytes (written to files here)."""
    for i, job in enumerate(jobs):
        for key in ("input", "expect"):
            if isinstance(job.get(key), bytes):
                path = tmp_path / f"{i}.{key}"
                path.write_bytes(job[key])
                job[key] = str(path)
    jobs_file = tmp_path / "jobs.json"
    jobs_file.write_text(json.dumps(jobs))
    done = subprocess.run([str(NODE), str(DRIVER), str(ZSTD_JS), str(jobs_file)], capture_output=True,
                          text=True, timeout=timeout, check=True)
    results: list[dict] = json.loads(done.stdout)
    return results


def matrix() -> list[tuple[str, int, bool, bool]]:
    """Each small kind at each level with and without checksum and content size; the ~3 MB one at each
    level once, the flags taking turns (compressing it at 19 and 22 is what takes time)."""
    cases = [(name, level, checksum, size) for name in ("empty", "one", "short", "text", "runs", "random")
             for level in LEVELS for checksum in (False, True) for size in (False, True)]
    flags = [(True, True), (False, False), (True, False), (False, True), (True, True)]
    cases += [("mixed", level, *flag) for level, flag in zip(LEVELS, flags)]
    return cases


def test_every_level_kind_and_flag_decodes_whole(tmp_path: Path) -> None:
    cases = matrix()
    jobs = [{"input": compressed(*case), "expect": corpus()[case[0]]} for case in cases]
    results = run(tmp_path, jobs)
    wrong = [(case, result) for case, result in zip(cases, results) if not result.get("ok")]
    assert not wrong


def test_the_blocks_are_of_every_kind() -> None:
    """The corpus reaches what the brief asks for: raw, RLE and compressed blocks; raw, RLE, Huffman
    and treeless literals in 1 and 4 streams; each of the four modes of the sequences' three tables (a
    test of the decoder is only as good as what it is fed)."""
    blocks: set[int] = set()
    literals: set[tuple[int, int]] = set()
    modes: set[tuple[str, int]] = set()
    for case in matrix():
        frame = compressed(*case)
        at = header_size(frame)
        while True:
            header = int.from_bytes(frame[at:at + 3], "little")
            kind, size = header >> 1 & 3, header >> 3
            blocks.add(kind)
            if kind == 2:
                literals.add((frame[at + 3] & 3, frame[at + 3] >> 2 & 3))
                modes |= sequence_modes(frame[at + 3:at + 3 + size])
            at += 3 + (1 if kind == 1 else size)
            if header & 1:
                break
    assert blocks == {0, 1, 2}
    assert {kind for kind, _ in literals} == {0, 1, 2, 3}
    assert {(2, 0), (2, 1), (3, 0), (3, 1)} <= literals  # Huffman, treeless: 1 stream and 4
    assert modes == {(table, mode) for table in ("LL", "OF", "ML") for mode in range(4)}


def sequence_modes(block: bytes) -> set[tuple[str, int]]:
    """The modes of a compressed block's LL, OF and ML tables (none without sequences)."""
    kind, form = block[0] & 3, block[0] >> 2 & 3
    if kind < 2:
        head = (1, 2, 1, 3)[form]
        size = int.from_bytes(block[:head], "little") >> (3 if head == 1 else 4)
        at = head + (size if kind == 0 else 1)
    else:
        head = (3, 3, 4, 5)[form]
        bits = int.from_bytes(block[:head], "little") >> 4
        width = (10, 10, 14, 18)[form]
        at = head + (bits >> width & ((1 << width) - 1))
    count = block[at]
    if count == 0:
        return set()
    at += 1 if count < 128 else 2 if count < 255 else 3
    return {("LL", block[at] >> 6), ("OF", block[at] >> 4 & 3), ("ML", block[at] >> 2 & 3)}


def test_several_frames_and_a_skippable_one(tmp_path: Path) -> None:
    c = corpus()
    parts = [("text", 19, True, True), ("short", 1, False, False), ("random", 3, True, False),
             ("empty", 9, False, True), ("runs", 22, False, True)]
    frames = [compressed(*part) for part in parts]
    joined = frames[0] + skippable(b"skip me" * 50, 7) + b"".join(frames[1:]) + skippable(b"", 15)
    expect = b"".join(c[part[0]] for part in parts)
    only_skippable = skippable(b"nothing here")
    results = run(tmp_path, [{"input": joined, "expect": expect},
                             {"input": joined, "expect": expect, "chunks": [7, 1, 300]},
                             {"input": only_skippable, "expect": b""}])
    assert [r.get("ok") for r in results] == [True, True, True]


def reheader(frame: bytes, size: int, fcs_bytes: int, single: bool, did_bytes: int) -> bytes:
    """The frame with its header written again (3.1.1.1): Frame_Content_Size `size` in 0, 1, 2, 4 or
    8 bytes, the single-segment flag, a Dictionary_ID of 0 in 0, 1, 2 or 4 bytes."""
    fcs_flag = {0: 0, 1: 0, 2: 1, 4: 2, 8: 3}[fcs_bytes]
    assert (fcs_bytes == 1) == (single and fcs_flag == 0)
    fhd = fcs_flag << 6 | single << 5 | (frame[4] & 0x04) | {0: 0, 1: 1, 2: 2, 4: 3}[did_bytes]
    window = b"" if single else frame[5:6]
    value = 0 if fcs_bytes == 0 else size - 256 if fcs_bytes == 2 else size
    return (frame[:4] + bytes([fhd]) + window + bytes(did_bytes) + value.to_bytes(fcs_bytes, "little")
            + frame[header_size(frame):])


def test_every_header_form(tmp_path: Path) -> None:
    """Frame_Content_Size in each of its sizes, with and without the single-segment flag, and an empty
    Dictionary_ID in each of its sizes, around the same blocks."""
    jobs = []
    for name, level in (("short", 19), ("text", 3), ("runs", 1)):
        data = corpus()[name]
        frame = compressed(name, level, True, False)  # a window descriptor, no content size
        assert not frame[4] & 0x20
        forms = [(0, False, 0), (4, False, 1), (8, False, 2), (4, True, 4), (8, True, 0)]
        if 256 <= len(data) < 65_792:
            forms += [(2, False, 0), (2, True, 2)]
        if len(data) < 256:
            forms += [(1, True, 1)]
        jobs += [{"input": reheader(frame, len(data), *form), "expect": data} for form in forms]
    results = run(tmp_path, jobs)
    assert all(r.get("ok") for r in results), results


def test_a_match_more_than_64_mib_back(tmp_path: Path) -> None:
    """An offset code over 25 (an offset of 64 MiB or more, whose extra bits are read in two parts):
    1 MiB of random bytes seen again 66 MiB later, found by long-distance matching in a 128 MiB window."""
    again = random.Random(5).randbytes(1 << 20)
    data = again + bytes(66 << 20) + again
    params = zstandard.ZstdCompressionParameters.from_level(1, window_log=27, enable_ldm=True)
    frame = zstandard.ZstdCompressor(compression_params=params).compress(data)
    assert len(frame) < 1.1 * len(again)  # the second time is a match
    [result] = run(tmp_path, [{"input": frame, "expect": data}])
    assert result.get("ok"), result


def test_stream_in_awkward_chunks(tmp_path: Path) -> None:
    rng = random.Random(8878)
    sizes = [rng.choice([1, 2, 3, 5, 100, 4095, 70_000]) for _ in range(50)]
    cases = [("short", 19, True, True), ("text", 3, False, False), ("runs", 19, True, False),
             ("random", 1, False, True), ("mixed", 22, True, True), ("mixed", 3, False, False)]
    jobs = []
    for case in cases:
        data = compressed(*case)
        chunkings = [[7], [65536], sizes] + ([[1]] if len(data) < 150_000 else [])
        jobs += [{"input": data, "expect": corpus()[case[0]], "chunks": chunks} for chunks in chunkings]
    results = run(tmp_path, jobs)
    assert all(r.get("ok") for r in results), results


def test_stream_gives_output_before_the_input_ends(tmp_path: Path) -> None:
    """A .wasm compiles while it downloads: half the compressed bytes give their blocks' output."""
    data = compressed("mixed", 19, False, True)
    [result] = run(tmp_path, [{"input": data, "early": True}])
    assert result["early"] > len(corpus()["mixed"]) // 4


def test_stream_chunks_own_their_bytes(tmp_path: Path) -> None:
    """Each chunk stream() gives is a buffer of its own, not a view of the frame's whole output: the
    service worker clones the response it hands on (sw.js keeps a copy), and a clone copies each chunk
    with all of its buffer (a 10 MB .wasm cost 13 s of the worker's CPU that way)."""
    data = compressed("mixed", 19, False, True)
    [result] = run(tmp_path, [{"input": data, "expect": corpus()["mixed"], "chunks": [65536]}])
    assert result["ok"] and result["shared"] == 0


def test_classic_script_and_module(tmp_path: Path) -> None:
    """The same file works as a classic script (importScripts, <script>) and as a module import."""
    module = tmp_path / "zstd.mjs"
    shutil.copyfile(ZSTD_JS, module)
    frame = compressed("short", 3, True, True)
    check = ("const out = globalThis.companionZstd.decompress(new Uint8Array(%s));"
             "process.stdout.write(new TextDecoder().decode(out));" % list(frame))
    classic = ("const vm = require('node:vm'); vm.runInThisContext(require('node:fs').readFileSync(%s, 'utf8'));"
               % json.dumps(str(ZSTD_JS)))
    as_module = "await import(%s);" % json.dumps(module.as_uri())
    for prelude, kind in ((classic, "commonjs"), (as_module, "module")):
        done = subprocess.run([str(NODE), "--input-type", kind, "-e", prelude + check], capture_output=True,
                              text=True, timeout=30, check=True)
        assert done.stdout.encode() == corpus()["short"]


def test_the_big_wasm_files_at_level_19(tmp_path: Path) -> None:
    """The files the phone-alone build ships: flet-web's pyodide.asm.wasm, main.dart.wasm, skwasm.wasm."""
    flet_web = pytest.importorskip("flet_web")
    web = Path(flet_web.__file__).parent / "web"
    wanted = ("pyodide.asm.wasm", "main.dart.wasm", "skwasm.wasm")
    files = [path for path in sorted(web.rglob("*.wasm")) if path.name in wanted]
    if not files:
        pytest.skip(f"no {', '.join(wanted)} under {web}")
    compressor = zstandard.ZstdCompressor(level=19, write_checksum=False, threads=2)
    jobs = [{"input": compressor.compress(path.read_bytes()), "expect": path.read_bytes()} for path in files]
    results = run(tmp_path, jobs)
    assert all(r.get("ok") for r in results), results


def test_truncated_input_throws(tmp_path: Path) -> None:
    jobs = []
    for case in (("text", 19, True, True), ("mixed", 3, False, False), ("random", 1, False, True),
                 ("runs", 22, True, False), ("one", 1, False, False)):
        data = compressed(*case)
        for cut in sorted({0, 1, 3, 4, 5, 8, 12, len(data) // 3, len(data) // 2, len(data) - 5,
                           len(data) - 4, len(data) - 1}):
            if 0 <= cut < len(data):
                jobs.append({"input": data[:cut], "expect": b""})
    jobs.append({"input": compressed("short", 3, False, False) + b"\x28\xb5", "expect": b""})
    results = run(tmp_path, jobs, timeout=30)
    assert all(r.get("error", "").startswith("zstd: ") for r in results), results


def test_corrupt_headers_throw(tmp_path: Path) -> None:
    frame = compressed("text", 9, False, True)
    single = compressed("short", 3, False, True)  # single segment: Frame_Content_Size 1 byte at [5]
    assert single[4] & 0x20
    cases = {
        "not Zstandard data (bad magic number)": [(0, 0x01)],
        "reserved bit set in the frame header": [(4, 0x08)],
        "dictionaries are not supported": [(4, 0x01)],
        "frame size differs from Frame_Content_Size": [(5, 0x01)],
    }
    jobs = [{"input": single, "expect": corpus()["short"], "flips": flips} for flips in cases.values()]
    # a block header turned to the reserved type, and a wrong magic after a good frame
    bad_type = bytearray(frame)
    bad_type[header_size(frame)] |= 0x06
    jobs.append({"input": bytes(bad_type), "expect": corpus()["text"], "flips": [(0, 0)]})
    jobs.append({"input": frame + b"\x00\x00\x00\x00", "expect": corpus()["text"], "flips": [(0, 0)]})
    results = run(tmp_path, jobs, timeout=30)
    outcomes = [r["outcomes"][0] for r in results]
    assert outcomes == [f"error: zstd: {m}" for m in cases] + ["error: zstd: reserved block type",
                                                                 "error: zstd: bad magic number after a frame"]


def flips_for(data: bytes, seed: int, count: int) -> list[tuple[int, int]]:
    """Every byte of the first 48 changed three ways (headers, the first block's tables), then bytes
    at random places."""
    rng = random.Random(seed)
    head = [(i, xor) for i in range(min(48, len(data))) for xor in (0x01, 0x80, 0xFF)]
    return head + [(rng.randrange(len(data)), rng.randrange(1, 256)) for _ in range(count)]


def test_corrupt_bytes_throw_or_change_nothing(tmp_path: Path) -> None:
    """With the content checksum, a changed byte anywhere gives an Error (or, where the byte does not
    matter, as in the window descriptor, the same output): never different output. Without it, the
    decoder still ends quickly with a result or its own Error (never a stray TypeError or a hang)."""
    checked = [("text", 19, True, True), ("runs", 9, True, True), ("random", 1, True, False),
               ("mixed", 3, True, False)]
    unchecked = [("text", 22, False, False), ("short", 1, False, True)]
    cases = checked + unchecked
    jobs = [{"input": compressed(*case), "expect": corpus()[case[0]],
             "flips": flips_for(compressed(*case), n, 15 if case[0] == "mixed" else 200)}
            for n, case in enumerate(cases)]
    results = run(tmp_path, jobs, timeout=60)
    for case, result in zip(cases, results):
        outcomes = result["outcomes"]
        strays = [o for o in outcomes if o.startswith("error") and not o.startswith("error: zstd: ")]
        assert not strays, (case, strays)
        assert result["slowest"] < 2000, case
        if case[2]:
            assert "different" not in outcomes, case
            assert sum(o.startswith("error") for o in outcomes) > len(outcomes) * 0.9, (case, outcomes)
