"""PL102 tee-slow-mount: writes to NFS and friends, from the mount table, the script and the config."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from harness import lint

from pipelint.engine import checker
from pipelint.cli.main import cli
from pipelint.engine.config import Settings

MOUNTS = Path(__file__).parent.parent.parent / "fixtures" / "mounts"
WORKSTATION = str(MOUNTS / "workstation.mountinfo")
LOCAL_ONLY = str(MOUNTS / "local-only.mountinfo")


def findings(script: str, mountinfo: str | None = WORKSTATION, settings: Settings | None = None):
    settings = settings or Settings(select=("PL102",))
    rules = [rule() for rule in settings.enabled_rules()]
    found = checker.check(script.encode(), rules, "script.bash", settings, mountinfo).findings
    return [f for f in found if f.code == "PL102"]


def flagged(script: str, **kwargs) -> list[str]:
    source = script.encode()
    return [source[f.start : f.end].decode() for f in findings(script, **kwargs)]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("make 2>&1 | tee /mnt/nfs/build.log | tail -1", ["/mnt/nfs/build.log"]),
        ("make 2>&1 | tee -a /mnt/nfs/build.log", ["/mnt/nfs/build.log"]),
        ("make | tee /tmp/a.log /mnt/nfs/b.log | tail -1", ["/mnt/nfs/b.log"]),
        ('make | tee "/mnt/team share/build.log" | tail -1', ['"/mnt/team share/build.log"']),
        ("make | tee /mnt/team\\ share/build.log | tail -1", ["/mnt/team\\ share/build.log"]),
        ("make | tee '/home/ana/remote/x' | tail -1", ["'/home/ana/remote/x'"]),
        ("make | tee /mnt/bucket/x | tail -1", ["/mnt/bucket/x"]),
        ("make | tee /srv/stack/x | tail -1", ["/srv/stack/x"]),  # nfs stacked on ext4
        ("make | tee /mnt/nfs/../nfs/x | tail -1", ["/mnt/nfs/../nfs/x"]),
        ('make | tee "/mnt/nfs/logs/$job.log" | tail -1', ['"/mnt/nfs/logs/$job.log"']),
        ("make | tee /mnt/nfs/logs/*.log | tail -1", ["/mnt/nfs/logs/*.log"]),
        ("make 2>>/mnt/nfs/err.log | tail -1", ["2>>/mnt/nfs/err.log"]),
        ("make | tail -1 &> /mnt/nfs/out", ["&> /mnt/nfs/out"]),
        ("make | gzip > /mnt/nfs/build.gz", ["> /mnt/nfs/build.gz"]),
        ("make | gzip >> /mnt/nfs/build.gz 2>/mnt/nfs/gz.err", [">> /mnt/nfs/build.gz", "2>/mnt/nfs/gz.err"]),
        ("x=$(make | tee /mnt/nfs/b.log | tail -1)", ["/mnt/nfs/b.log"]),
        ("f() { make | tee /mnt/nfs/b.log | tail -1; }", ["/mnt/nfs/b.log"]),
        ('LOG=/mnt/nfs/b.log\nmake | tee "$LOG" | tail -1', ['"$LOG"']),
        ('LOG=/mnt/nfs\nmake | tee "${LOG}/b.log" | tail -1', ['"${LOG}/b.log"']),
        ('export LOG=/mnt/nfs/b.log\nmake | tee "$LOG" | tail -1', ['"$LOG"']),
        ('LOG=/mnt/nfs/b.log; export LOG\nmake | tee "$LOG" | tail -1', ['"$LOG"']),
    ],
)
def test_reports_from_the_mount_table(script, expected):
    assert flagged(script) == expected


@pytest.mark.parametrize(
    "script",
    [
        "make 2>&1 | tee build.log",  # relative: depends on the directory at run time
        "make 2>&1 | tee /var/log/build.log | tail -1",
        "make 2>&1 | tee /mnt/nfs/local-cache/build.log | tail -1",  # local disk inside the NFS tree
        "make 2>&1 | tee /mnt/nfsish/build.log | tail -1",
        "make 2>&1 | tee /run/user/1000/gvfs/x | tail -1",
        "make 2>&1 | tee /dev/null | tail -1",
        "make 2>&1 | tee /dev/stderr | tail -1",
        'make 2>&1 | tee "$LOG" | tail -1',
        'make 2>&1 | tee "/mnt/nfs/$dir/x" | tail -1',  # $dir could be local-cache
        "make 2>&1 | tee ~/remote/x | tail -1",
        'make 2>&1 | tee "$HOME/x" | tail -1',
        "make 2>&1 | tee /mnt/{nfs,x}/x | tail -1",
        'LOG=/mnt/nfs/b.log\nread -r LOG\nmake | tee "$LOG" | tail -1',
        'LOG=/mnt/nfs/b.log\nLOG=/tmp/b.log\nmake | tee "$LOG" | tail -1',
        'for LOG in /mnt/nfs/b.log; do :; done\nLOG=/tmp/x\nmake | tee "$LOG" | tail -1',
        'make | tee "$LOG" | tail -1\nLOG=/mnt/nfs/b.log',  # set after the pipeline
        'LOG=/mnt/nfs/b.log make | tee "$LOG" | tail -1',  # set for one command only
        "wc -l < /mnt/nfs/input.txt | tail -1",  # reading is not this rule's business
        "make 2>&1 >/dev/null | tail -1",
        "tee /mnt/nfs/x.log < in.txt",  # not a pipeline
        "if true; then\n make | tee /mnt/nfs/x.log | tail -1\nfi fi\n",  # inside a parse error
    ],
)
def test_leaves_alone(script):
    assert flagged(script) == []


@pytest.mark.parametrize(
    "script",
    [
        'echo "backup of $db done" | tee -a /mnt/nfs/backup.log',
        "printf '%s\\n' started | tee -a /mnt/nfs/run.log >/dev/null",
        "date | tee -a /mnt/nfs/run.log",
        "date +%F | sed 's/-//g' | tee /mnt/nfs/stamp",
        'cat <<< "$summary" | tee /mnt/nfs/summary.txt',
        "cat <<EOF | tee /mnt/nfs/motd\nhello\nEOF\n",
        "echo done | tee /mnt/nfs/a | tail -1 > /mnt/nfs/b",
        "hostname | tr a-z A-Z > /mnt/nfs/host",
        # The words' text was made before the producer starts: one write, whatever a `$(…)` gave.
        'echo "$(date) : started" | tee -a /mnt/nfs/run.log',
        "printf '%s\\n' \"$(hostname): $msg\" | tee -a /mnt/nfs/run.log >/dev/null",
        'echo "$(cat summary.txt)" | tee /mnt/nfs/x',
    ],
)
def test_leaves_alone_a_bounded_producer(script):
    """A few lines are one small write: nothing for the pipeline to wait on (issue 10)."""
    assert flagged(script) == []


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("echo big.log | xargs cat | tee /mnt/nfs/x", ["/mnt/nfs/x"]),
        ("echo x | cat - big.log | tee /mnt/nfs/x", ["/mnt/nfs/x"]),
        ("echo x | ssh host dump | tee /mnt/nfs/x", ["/mnt/nfs/x"]),
        ("cat big.log | tee /mnt/nfs/x | tail -1", ["/mnt/nfs/x"]),
        ("echo() { cat big.log; }\necho | tee /mnt/nfs/x", ["/mnt/nfs/x"]),
    ],
)
def test_still_reports_where_the_amount_is_unknown(script, expected):
    assert flagged(script) == expected


def test_a_plain_redirect_without_a_pipeline_is_left_alone():
    assert flagged("make >> /mnt/nfs/build.log 2>&1\nmysqldump db > /mnt/nfs/db.sql") == []


def test_nothing_is_slow_on_a_local_machine():
    assert flagged("make | tee /mnt/nfs/build.log | tail -1", mountinfo=LOCAL_ONLY) == []


def test_message_names_the_mount_and_the_advice_is_help_not_a_fix():
    (finding,) = findings('LOG=/mnt/nfs/b.log\nmake | tee "$LOG" | tail -1')
    assert "(/mnt/nfs/b.log)" in finding.message
    assert "nfs4 mount filer:/export/jobs at /mnt/nfs" in finding.message
    assert "8×" in finding.message
    assert finding.fix is None and "local disk" in finding.help
    assert "splicecat" not in finding.message


def test_points_to_splicecat_tee_when_pl602_is_enabled():
    (finding,) = findings("make | tee /mnt/nfs/b.log | tail -1", settings=Settings(select=("PL102", "PL602")))
    assert "`splicecat --tee`" in finding.message and "PL602" in finding.message
    assert "splicecat --tee" in finding.help


@pytest.mark.parametrize(
    "script",
    [
        "mount -t nfs4 filer:/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "sudo mount -t nfs -o vers=3,ro filer:/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount -tcifs //nas/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount --types=smb3 //nas/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount filer:/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount //nas/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount.nfs4 filer:/logs /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "sshfs ana@build:/srv /var/logs -o reconnect\nmake | tee /var/logs/b.log | tail -1",
        'MNT=/var/logs\nmount -t nfs4 filer:/logs "$MNT"\nmake | tee "$MNT/b.log" | tail -1',
    ],
)
def test_reports_mounts_the_script_makes(script):
    assert len(findings(script, mountinfo=LOCAL_ONLY)) == 1


@pytest.mark.parametrize(
    "script",
    [
        "make | tee /var/logs/b.log | tail -1\nmount -t nfs4 filer:/logs /var/logs",  # mounted later
        "mount -t nfs4 filer:/logs /var/logs\numount /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "sshfs a@b:/ /var/logs\nfusermount -u /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount -t ext4 /dev/sdb1 /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount /dev/sdb1 /var/logs\nmake | tee /var/logs/b.log | tail -1",
        "mount /var/logs\nmake | tee /var/logs/b.log | tail -1",  # from fstab: unknown type
        "mount -a\nmake | tee /var/logs/b.log | tail -1",
        "mount -t nfs4 filer:/logs /var/logs\nmount -t tmpfs tmpfs /var/logs/fast\nmake | tee /var/logs/fast/b.log | tail -1",
    ],
)
def test_leaves_alone_mounts_that_do_not_apply(script):
    assert findings(script, mountinfo=LOCAL_ONLY) == []


def test_slow_mounts_setting():
    settings = Settings(select=("PL102",), slow_mounts=("/data/archive", "logs"))
    assert [f.start for f in findings("make | tee /data/archive/b.log | tail -1", LOCAL_ONLY, settings)] == [11]
    assert len(findings("make | tee logs/b.log | tail -1", LOCAL_ONLY, settings)) == 1
    assert findings("make | tee /data/archived/b.log | tail -1", LOCAL_ONLY, settings) == []
    (finding,) = findings("make | tee /data/archive/x | tail -1", LOCAL_ONLY, settings)
    assert "/data/archive is listed in slow-mounts" in finding.message


def test_default_table_is_this_machine(tmp_path):
    """No --mounts: /proc/self/mountinfo; whatever it holds, nothing crashes."""
    assert isinstance(lint("make | tee /mnt/nfs/b.log | tail -1", select=("PL102",)), list)


def test_cli_reads_mounts_and_slow_mount(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\nmake | tee /mnt/nfs/b.log | tail -1\nmake | tee /opt/slow/x | tail -1\n")
    args = ["check", "--select", "PL102", "--output-format", "concise", str(script)]
    local = CliRunner().invoke(cli, [*args, "--mounts", LOCAL_ONLY])
    assert local.exit_code == 0, local.output
    nfs = CliRunner().invoke(cli, [*args, "--mounts", WORKSTATION, "--slow-mount", "/opt/slow"])
    assert nfs.exit_code == 1
    assert nfs.output.count("PL102") == 2, nfs.output
    assert "job.sh:2:" in nfs.output and "job.sh:3:" in nfs.output


def test_config_slow_mounts(tmp_path):
    (tmp_path / ".pipelint.toml").write_text('select = ["PL102"]\nslow-mounts = ["/opt/slow"]\n')
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\nmake | tee /opt/slow/x | tail -1\n")
    result = CliRunner().invoke(cli, ["check", "--output-format", "concise", "--mounts", LOCAL_ONLY, str(script)])
    assert result.exit_code == 1 and "PL102" in result.output, result.output


def test_garbage_mount_table_gives_no_traceback(tmp_path):
    table = tmp_path / "mountinfo"
    table.write_bytes(b"\xff\xfe\x00 - - -\n\n12\n")
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\nmake | tee /mnt/nfs/b.log | tail -1\n")
    result = CliRunner().invoke(cli, ["check", "--select", "PL102", "--mounts", str(table), str(script)])
    assert result.exit_code == 0 and result.exception is None, result.output


def test_an_unmount_takes_back_only_what_the_script_mounted():
    # /mnt/nfs is the workstation's own NFS mount: the script's umount of it is not known to run
    # first (it may fail, or need root), and an unmount in a script that mounts nothing is not read.
    assert flagged("umount /mnt/nfs\nmake | tee /mnt/nfs/b.log | tail -1") == ["/mnt/nfs/b.log"]
    assert flagged('D=/mnt/nfs\numount "$D"\nmake | tee "$D/b.log" | tail -1') == ['"$D/b.log"']
