"""Which way round a file writes its dates with slashes: month/day/year (a US spreadsheet's 7/22/2025) or
day/month/year (22/07/2025).

A date such as 9/2/2024 says nothing by itself; the other dates of its column do: one part over 12
(7/22/2025) settles the column. A column without such a date takes the order its file's other columns
show. A column whose dates show both orders, or whose file shows none, is not guessed: each of its
ambiguous dates is reported and left unknown (a stored value for it is kept).
"""

from __future__ import annotations

from collections import defaultdict

from aikg.epoch.context import Finding
from aikg.epoch.values import ORDERS, slashed_parts


def date_orders(file: str, rows: list[tuple[int, dict[str, str]]]) -> tuple[dict[str, str], list[Finding]]:
    """{column: "mdy" or "dmy"} for the columns of ``rows`` holding dates with slashes whose order is
    known, and what the report says about each such column."""
    evidence: dict[str, dict[str, str]] = defaultdict(dict)
    """column -> order -> one cell showing it."""
    slashed: dict[str, int] = defaultdict(int)
    for _, cells in rows:
        for column, cell in cells.items():
            parts = slashed_parts(cell)
            if parts is None:
                continue
            slashed[column] += 1
            a, b = parts
            if a > 12 and b <= 12:
                evidence[column].setdefault("dmy", cell.strip())
            elif b > 12 and a <= 12:
                evidence[column].setdefault("mdy", cell.strip())
    file_orders = {o for e in evidence.values() for o in e if len(e) == 1}
    out: dict[str, str] = {}
    findings = []
    for column in sorted(slashed):
        shown = evidence.get(column, {})
        if len(shown) == 1:
            order, cell = next(iter(shown.items()))
            out[column] = order
            why = f"{cell} can only be {ORDERS[order]}"
        elif len(shown) > 1:
            findings.append(
                Finding(
                    "column",
                    file,
                    f"column {column!r} writes dates both ways ({shown['mdy']} is month/day/year, "
                    f"{shown['dmy']} day/month/year): its dates with slashes that could be either are "
                    "left unknown and reported",
                    column=column,
                )
            )
            continue
        elif len(file_orders) == 1:
            order = next(iter(file_orders))
            out[column] = order
            why = f"no date of the column tells, and the file's other date columns are {ORDERS[order]}"
        else:
            findings.append(
                Finding(
                    "column",
                    file,
                    f"column {column!r} writes {slashed[column]} dates with slashes and none of them, nor "
                    "any other column, tells month/day from day/month: each that could be either is left "
                    "unknown and reported",
                    column=column,
                )
            )
            continue
        findings.append(
            Finding(
                "column",
                file,
                f"column {column!r}: {slashed[column]} dates with slashes read as {ORDERS[order]} ({why})",
                column=column,
            )
        )
    return out, findings
