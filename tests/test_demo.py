"""`nagle-lint demo`: its pure formatting functions on fabricated results, and
its argument handling (no sockets are opened here)."""

from __future__ import annotations

import io
import math

import pytest

from nagle_lint import demo
from nagle_lint.cli import main as cli_main
from nagle_lint.demo import (
    ASCII_BLOCK, BAR_WIDTH, SCALE_FLOOR_MS, TEXT_WIDTH, UNICODE_BLOCKS, VARIANTS, Result, bar_cells, draw_bar,
    explain, format_chart, format_ms, format_table, percentile, render,
)

SPLIT, JOINED, NODELAY = VARIANTS


def stalled():
    return [
        Result(SPLIT, (44.1, 43.9, 44.0, 45.0, 43.8), 10),
        Result(JOINED, (0.02, 0.03, 0.02, 0.021, 0.019), 5),
        Result(NODELAY, (0.02, 0.025, 0.03, 0.02, 0.022), None),
    ]


def quick():
    return [
        Result(SPLIT, (0.05, 0.06, 0.04), 6),
        Result(JOINED, (0.02, 0.03, 0.02), 3),
    ]


# --- numbers ---------------------------------------------------------------------


@pytest.mark.parametrize("values, pct, expected", [
    ([5.0], 50, 5.0),
    ([5.0], 90, 5.0),
    ([3.0, 1.0, 2.0], 50, 2.0),
    ([float(i) for i in range(1, 11)], 90, 9.0),
    ([float(i) for i in range(1, 11)], 91, 10.0),
    ([float(i) for i in range(1, 11)], 100, 10.0),
    ([float(i) for i in range(1, 11)], 0, 1.0),
    ([float(i) for i in range(1, 21)], 50, 10.0),
    ([4.0, 4.0, 1.0, 9.0], 75, 4.0),
])
def test_percentile_nearest_rank(values, pct, expected):
    assert percentile(values, pct) == expected


def test_percentile_does_not_modify_its_input():
    values = [3.0, 1.0, 2.0]
    percentile(values, 90)
    assert values == [3.0, 1.0, 2.0]


def test_percentile_of_nothing():
    with pytest.raises(ValueError):
        percentile([], 50)


@pytest.mark.parametrize("value, text", [
    (0.0, "0.000"),
    (0.021, "0.021"),
    (0.5, "0.500"),
    (1.0, "1.00"),
    (4.4, "4.40"),
    (10.0, "10.0"),
    (44.04, "44.0"),
    (100.0, "100"),
    (203.4, "203"),
    (1234.5, "1234"),
])
def test_format_ms(value, text):
    assert format_ms(value) == text


def test_result_properties():
    r = Result(SPLIT, (44.0, 40.0, 48.0, 42.0), 8)
    assert r.rounds == 4
    assert r.median_ms == 43.0
    assert r.p90_ms == 48.0
    assert r.packets_per_trip == 2.0
    assert Result(SPLIT, (1.0,), None).packets_per_trip is None
    assert Result(SPLIT, (), 3).packets_per_trip is None


# --- bars ---------------------------------------------------------------------------


def test_bar_cells_log_scale():
    top = 100.0
    assert bar_cells(top, top) == BAR_WIDTH
    assert bar_cells(top * 10, top) == BAR_WIDTH  # never longer than the width
    # Halfway in log space between the floor and the top is half the width.
    middle = math.sqrt(SCALE_FLOOR_MS * top)
    assert bar_cells(middle, top) == pytest.approx(BAR_WIDTH / 2)
    assert bar_cells(1.0, 1000.0, width=30) == pytest.approx(15.0)


def test_bar_cells_floor():
    assert bar_cells(0.0, 44.0) == 1 / 8
    assert bar_cells(SCALE_FLOOR_MS / 100, 44.0) == 1 / 8
    assert bar_cells(SCALE_FLOOR_MS, 44.0) == 1 / 8


def test_bar_cells_is_monotonic():
    values = [0.001, 0.01, 0.02, 0.1, 1, 5, 44, 200]
    cells = [bar_cells(v, 200.0) for v in values]
    assert cells == sorted(cells)
    assert len(set(cells)) == len(cells)


def test_bar_cells_with_a_tiny_top():
    # Everything below the floor: the scale still spans at least one decade, no division by zero.
    assert 0 < bar_cells(0.0005, 0.0005) <= BAR_WIDTH
    assert bar_cells(0.01, 0.0005) == BAR_WIDTH


@pytest.mark.parametrize("cells, bar", [
    (1.0, "█"),
    (3.0, "███"),
    (1.5, "█▌"),
    (0.125, "▏"),
    (0.01, "▏"),  # a positive value is never invisible
    (2.875, "██▉"),
    (40.0, "█" * 40),
])
def test_draw_bar_unicode(cells, bar):
    assert draw_bar(cells) == bar
    assert set(draw_bar(cells)) <= set(UNICODE_BLOCKS)


@pytest.mark.parametrize("cells, bar", [(0.1, "#"), (1.0, "#"), (2.4, "##"), (2.6, "###"), (40.0, "#" * 40)])
def test_draw_bar_ascii(cells, bar):
    assert draw_bar(cells, unicode=False) == bar
    assert set(bar) == {ASCII_BLOCK}


# --- table, chart, explanation ---------------------------------------------------


def test_format_table():
    lines = format_table(stalled()).splitlines()
    assert len(lines) == 4
    assert lines[0].split()[:1] == ["variant"]
    for heading in ("what the client does", "trips", "median ms", "p90 ms", "packets/trip"):
        assert heading in lines[0]
    split, joined, nodelay = lines[1:]
    assert split.startswith("split ") and "2 x sendall, then recv" in split
    assert split.split()[-4:] == ["5", "44.0", "45.0", "2.0"]
    assert joined.split()[-4:] == ["5", "0.020", "0.030", "1.0"]
    assert nodelay.split()[-1] == "n/a"
    # Right-aligned numeric columns: every row ends at the same column.
    assert len({len(line) for line in lines}) == 1
    assert all(line == line.rstrip() for line in lines)


def test_format_table_with_no_results_has_only_the_header():
    assert format_table([]).splitlines()[0].startswith("variant")
    assert len(format_table([]).splitlines()) == 1


def test_format_chart():
    chart = format_chart(stalled())
    lines = chart.splitlines()
    assert lines[0] == "median round trip (log scale, 0.001 ms to 44.0 ms)"
    assert len(lines) == 4
    names = [line.split()[0] for line in lines[1:]]
    assert names == ["split", "joined", "split+nodelay"]
    assert lines[1].endswith(" 44.0 ms")
    assert lines[2].endswith(" 0.020 ms")
    # Bars start in one column, and the slowest one is the full width.
    starts = {line.index(next(c for c in line if c in UNICODE_BLOCKS)) for line in lines[1:]}
    assert len(starts) == 1
    assert lines[1].count("█") == BAR_WIDTH
    assert lines[2].count("█") < lines[1].count("█")


def test_format_chart_ascii_and_width():
    chart = format_chart(stalled(), unicode=False, width=10)
    assert not set(chart) & set(UNICODE_BLOCKS)
    assert chart.splitlines()[1].count("#") == 10


def test_format_chart_empty():
    assert format_chart([]) == ""


def test_explain_when_it_stalled():
    text = explain(stalled())
    assert "44.0 ms" in text and "0.020 ms" in text
    assert "Nagle" in text and "40 ms" in text and "200 ms" in text
    assert "TCP_NODELAY" in text  # the band-aid is mentioned because it was measured
    assert "one call" in text


def test_explain_without_the_nodelay_variant():
    text = explain(stalled()[:2])
    assert "Nagle" in text
    assert "TCP_NODELAY" not in text


def test_explain_when_nothing_stalled():
    text = explain(quick())
    assert text.startswith("No stall showed up here")
    assert "0.050 ms" in text and "0.020 ms" in text
    assert "40-200 ms" in text


def test_explain_needs_split_and_joined():
    assert explain([]) == ""
    assert explain(stalled()[1:]) == ""


def test_explain_a_slow_machine_is_not_a_stall():
    # Both variants slow alike (a loaded machine): no claim that Nagle did it.
    results = [Result(SPLIT, (30.0, 31.0), None), Result(JOINED, (29.0, 30.0), None)]
    assert explain(results).startswith("No stall")


def test_render():
    out = render(stalled())
    assert out.endswith("\n")
    lines = out.splitlines()
    assert lines[0].startswith("nagle-lint demo: request/response round trips over TCP on 127.0.0.1")
    assert format_table(stalled()) in out
    assert format_chart(stalled()) in out
    assert all(len(line) <= TEXT_WIDTH for line in lines if "█" not in line)
    assert "Nagle" in out


def test_render_ascii():
    out = render(stalled(), unicode=False)
    assert not set(out) & set(UNICODE_BLOCKS)
    assert ASCII_BLOCK in out


# --- entry point --------------------------------------------------------------------


def test_help_exits_0(capsys):
    assert demo.main(["--help"]) == 0
    assert "--rounds" in capsys.readouterr().out


def test_help_through_the_cli(capsys):
    assert cli_main(["demo", "--help"]) == 0
    out = capsys.readouterr().out
    assert "nagle-lint demo" in out and "--budget" in out


@pytest.mark.parametrize("argv", [["--bogus"], ["--rounds", "many"], ["--rounds", "0"], ["--budget", "0"],
                                  ["--budget", "-1"], ["extra"]])
def test_bad_arguments_exit_2_without_traceback(capsys, monkeypatch, argv):
    monkeypatch.setattr(demo, "run_all", lambda *a, **k: pytest.fail("must not measure with bad arguments"))
    assert cli_main(["demo", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nagle-lint: error: demo: ") and len(err.splitlines()) == 1, err


def test_main_prints_the_report(monkeypatch):
    calls = []

    def fake_run_all(rounds, budget):
        calls.append((rounds, budget))
        return stalled()

    monkeypatch.setattr(demo, "run_all", fake_run_all)
    out = io.StringIO()
    assert demo.main(["--rounds", "7", "--budget", "1.5"], out=out) == 0
    assert calls == [(7, 1.5)]
    assert out.getvalue() == render(stalled())


def test_main_falls_back_to_ascii_bars(monkeypatch):
    monkeypatch.setattr(demo, "run_all", lambda rounds, budget: stalled())
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    assert demo.main([], out=out) == 0
    text = raw.getvalue().decode("ascii")
    assert ASCII_BLOCK * 10 in text


def test_main_reports_socket_errors(capsys, monkeypatch):
    def refuse(rounds, budget):
        raise OSError("network is unreachable")

    monkeypatch.setattr(demo, "run_all", refuse)
    assert demo.main([], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "network is unreachable" in err and "Traceback" not in err
