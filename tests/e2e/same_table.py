"""Whether two CSV tables hold the same cells, numbers within a relative 1e-8: exit 0 if so, else 1 with the
first differing cells on stdout.

The references are compared with what this binary writes on whatever machine the tests run on. Their
words and counts must match exactly, but the last bits of a floating-point result depend on the machine:
glibc picks its exp/log/pow code by CPU (FMA or not), and a certificate near 1e-6 that is a difference of
nearly equal sums moved by 1e-10 relative between two machines (walk_accuracy's inner_svm_gap, the same
binary). 1e-8 is far above that noise and far below any change a code edit makes to a reported number.
Below 1e-12 in absolute value every number is rounding (a duality gap of 4e-16 on one machine is -2e-16 on
another), so differences that small pass too.
With --rows REGEX, ACTUAL must hold exactly EXPECTED's header and those of its lines with a cell that
REGEX matches whole, in order (a rerun of a reference's cheap methods only: their rows, none lost).
Usage: same_table.py [--rows REGEX] EXPECTED ACTUAL
"""
import csv
import math
import re
import sys

RELATIVE = 1e-8
ABSOLUTE = 1e-12


def as_number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def same_cell(expected, actual):
    if expected == actual:
        return True
    a, b = as_number(expected), as_number(actual)
    if a is None or b is None:
        return False
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= max(RELATIVE * max(abs(a), abs(b)), ABSOLUTE)


def rows_matching(rows, pattern):
    """The header and the lines with a cell that pattern matches whole."""
    return rows[:1] + [row for row in rows[1:] if any(pattern.fullmatch(cell) for cell in row)]


def differences(expected_rows, actual_rows):
    if len(expected_rows) != len(actual_rows):
        yield f"{len(expected_rows)} lines expected, {len(actual_rows)} written"
        return
    for number, (expected, actual) in enumerate(zip(expected_rows, actual_rows), start=1):
        if len(expected) != len(actual):
            yield f"line {number}: {len(expected)} cells expected, {len(actual)} written"
            continue
        for column, (e, a) in enumerate(zip(expected, actual), start=1):
            if not same_cell(e, a):
                yield f"line {number}, column {column}: expected {e!r}, written {a!r}"


def main(arguments):
    pattern = None
    if arguments[:1] == ["--rows"]:
        pattern, arguments = re.compile(arguments[1]), arguments[2:]
    expected_path, actual_path = arguments[:2]
    try:
        with open(expected_path, newline="") as expected, open(actual_path, newline="") as actual:
            expected_rows = list(csv.reader(expected))
            if pattern is not None:
                expected_rows = rows_matching(expected_rows, pattern)
                if len(expected_rows) < 2:
                    print(f"no line of {expected_path} matches {pattern.pattern}")
                    return 1
            found = list(differences(expected_rows, list(csv.reader(actual))))
    except OSError as error:
        print(error)
        return 1
    for line in found[:4]:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
