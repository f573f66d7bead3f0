"""PL103 stray-tee: a mid-pipeline copy into a file nothing mentions again."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import assert_lint, codes, fix, lint, run_script

from pipelint.finding import Applicability, Severity
from pipelint.finding import apply_edits

DOC = Path(__file__).parent.parent.parent / "rules" / "PL103-stray-tee.md"


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | tee sorted.debug | uniq -c",
        "sort words.txt | tee -a /tmp/sorted.debug | uniq -c",
        "sort words.txt | tee 'my debug.txt' | uniq -c",
        "sort words.txt | tee a.debug b.debug | uniq -c",
        "sort words.txt | tee -- sorted.debug | uniq -c",
        "n=$(sort words.txt | tee sorted.debug | wc -l)",
        "sort words.txt | tee sorted.debug 2>/dev/null | uniq -c",
        "f() {\n  sort words.txt | tee sorted.debug | uniq -c\n}\nf",
    ],
)
def test_reports(script):
    (finding,) = assert_lint(script, "PL103")
    assert finding.severity is Severity.INFO


@pytest.mark.parametrize(
    "script",
    [
        # Logs kept on purpose: the tee is the last stage.
        "make 2>&1 | tee build.log",
        "./configure | tee -a config.out",
        # The file is used again, or named in a comment.
        "sort words.txt | tee sorted.txt | uniq -c\nwc -l sorted.txt",
        "rm -f sorted.txt\nsort words.txt | tee sorted.txt | uniq -c",
        "sort words.txt | tee /tmp/sorted.txt | uniq -c\ngzip \"$TMPDIR/sorted.txt\"",
        "# sorted.txt keeps the list for the audit\nsort words.txt | tee sorted.txt | uniq -c",
        "sort words.txt | tee a.txt b.txt | uniq -c\ncat b.txt",
        # Not a literal file.
        'sort words.txt | tee "$log" | uniq -c',
        "sort words.txt | tee \"$(date +%F).log\" | uniq -c",
        "sort words.txt | tee >(gzip > s.gz) | uniq -c",
        "sort words.txt | tee *.log | uniq -c",
        # Devices and stdout.
        "sort words.txt | tee /dev/stderr | uniq -c",
        "sort words.txt | tee /dev/tty | uniq -c",
        "sort words.txt | tee - | uniq -c",
        "sort words.txt | tee /dev/null | uniq -c",  # PL101
        # Output redirected: not a pass-through.
        "sort words.txt | tee x.debug > y.debug | uniq -c",
        "sort words.txt | tee --help | uniq -c",
    ],
)
def test_leaves_alone(script):
    assert "PL103" not in codes(script)


def test_display_only_advice_removes_the_stage():
    (finding,) = lint("sort words.txt | tee sorted.debug | uniq -c\n", select=("PL103",))
    assert finding.fix.applicability is Applicability.DISPLAY_ONLY
    assert apply_edits(b"sort words.txt | tee sorted.debug | uniq -c\n", list(finding.fix.edits)) == (
        b"sort words.txt | uniq -c\n"
    )
    assert fix("sort words.txt | tee sorted.debug | uniq -c\n", unsafe=True) == b"sort words.txt | tee sorted.debug | uniq -c\n"


@pytest.mark.parametrize(
    "script",
    [
        "sort words.txt | tee sorted.debug | uniq -c\n",
        "grep 500 access.log \\\n  | tee -a step1.debug \\\n  | wc -l\n",
        'n=$(sort "my file.txt" | tee "my debug.txt" | wc -l); echo "$n"\n',
    ],
)
def test_advice_keeps_the_output(script, tmp_path):
    """Removing the stage changes only the debug file left behind."""
    (finding,) = [f for f in lint(script) if f.code == "PL103"]
    advised = apply_edits(script.encode(), list(finding.fix.edits))
    before = run_script(script.encode(), tmp_path / "before")
    after = run_script(advised, tmp_path / "after")
    assert (after.stdout, after.status) == (before.stdout, before.status)
    assert set(before.files) - set(after.files) and set(after.files) <= set(before.files)


def test_documented_example_and_advice_print_the_same(tmp_path):
    text = DOC.read_text()
    example = text.split("## Example\n```bash\n")[1].split("```")[0]
    instead = text.split("## Use instead\n```bash\n")[1].split("```")[0]
    before = run_script(example.encode(), tmp_path / "before")
    after = run_script(instead.encode(), tmp_path / "after")
    assert before.stdout == after.stdout and before.stdout


def test_no_advice_edit_across_a_comment():
    (finding,) = lint("sort words.txt | tee sorted.debug |  # why\n  uniq -c\n", select=("PL103",))
    assert finding.code == "PL103" and finding.fix is None


def test_not_reported_inside_a_parse_error():
    assert "PL103" not in codes("if true; then\n sort words.txt | tee s.debug | uniq -c\nfi fi\n")


@pytest.mark.parametrize(
    "name",
    ["db.sql.gz", "logs.tar", "dump.sql", "pg.dump", "list.bak", "disk.img", "cd.ISO", "out.zst", "out.xz",
     "out.bz2", "nightly-backup.txt", "words.orig", "BACKUP_today"],
)
def test_a_name_that_says_data_meant_to_stay_is_not_a_stray_copy(name):
    """Archives, dumps, images and backups are written to be kept (issue 10)."""
    assert "PL103" not in codes(f"mysqldump db | tee {name} | ssh host 'cat > db.sql'\n")


def test_still_reports_a_debug_name():
    assert "PL103" in codes("mysqldump db | tee dump.debug | ssh host 'cat > db.sql'\n")


def test_a_file_another_script_in_the_folder_names_is_not_a_stray_copy(tmp_path):
    script = tmp_path / "produce.sh"
    source = "#!/bin/sh\nsort words.txt | tee sorted.list | uniq -c\n"
    script.write_text(source)
    assert "PL103" in codes(source, str(script))
    (tmp_path / "notes.txt").write_text("sorted.list\n")  # not a script: does not count
    assert "PL103" in codes(source, str(script))
    (tmp_path / "consume.sh").write_text("#!/bin/sh\nwc -l sorted.list\n")
    assert "PL103" not in codes(source, str(script))
    (tmp_path / "consume.sh").write_text("#!/bin/sh\nwc -l other.list\n")
    assert "PL103" in codes(source, str(script))
