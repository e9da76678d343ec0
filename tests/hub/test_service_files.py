"""The service definitions `apc-hub install` writes on macOS and Windows, read here with those formats'
own parsers (they can only be built, not run, on this Linux machine): the launchd agent's property
list (plistlib: RunAtLoad, KeepAlive unless it exited cleanly, its log, the hub's command with the
data directory in full) and the Task Scheduler task (UTF-16 XML, well formed: a logon trigger and a
principal for the person, their own token at the lowest privileges, no time limit, restart on
failure, the supervisor's command)."""

import os
import plistlib
import subprocess
import xml.etree.ElementTree as ET

from hubkit import hub_bin

NS = {"t": "http://schemas.microsoft.com/windows/2004/02/mit/task"}


def definition(os_name: str, home, data_dir: str, extra_env=None) -> bytes:
    env = dict(os.environ, HOME=str(home), **(extra_env or {}))
    run = subprocess.run([hub_bin(), "service-definition", os_name, "--data-dir", data_dir, "--listen", "127.0.0.1:7411"],
                         env=env, capture_output=True, check=True)
    return run.stdout


def test_the_launchd_agent_parses_and_keeps_the_hub_alive(tmp_path):
    data = "/Users/ada/Library/Application Support/apc-hub"
    plist = plistlib.loads(definition("macos", tmp_path, data))
    assert plist["Label"] == "local.apc-hub"
    assert plist["ProgramArguments"] == [
        f"{tmp_path}/.local/bin/apc-hub", "serve", "--quiet", "--listen", "127.0.0.1:7411", "--data-dir", data]
    assert plist["RunAtLoad"] is True
    assert plist["KeepAlive"] == {"SuccessfulExit": False}
    assert plist["StandardOutPath"] == plist["StandardErrorPath"] == f"{tmp_path}/Library/Logs/apc-hub/hub.log"
    assert plist["ThrottleInterval"] == 10


def test_the_windows_task_is_well_formed_utf16_for_the_person_at_logon(tmp_path):
    raw = definition("windows", tmp_path, r"C:\Users\ada\AppData\Roaming\apc-hub",
                     {"USERNAME": "ada", "USERDOMAIN": "PC", "LOCALAPPDATA": r"C:\Users\ada\AppData\Local"})
    assert raw[:2] == b"\xff\xfe", "UTF-16 little endian with its byte order mark"
    task = ET.fromstring(raw)
    assert task.tag == "{%s}Task" % NS["t"]
    assert task.findtext("t:Triggers/t:LogonTrigger/t:UserId", namespaces=NS) == r"PC\ada"
    principal = task.find("t:Principals/t:Principal", NS)
    assert principal.findtext("t:UserId", namespaces=NS) == r"PC\ada"
    assert principal.findtext("t:LogonType", namespaces=NS) == "InteractiveToken"
    assert principal.findtext("t:RunLevel", namespaces=NS) == "LeastPrivilege"
    settings = task.find("t:Settings", NS)
    assert settings.findtext("t:ExecutionTimeLimit", namespaces=NS) == "PT0S"
    assert settings.findtext("t:MultipleInstancesPolicy", namespaces=NS) == "IgnoreNew"
    assert settings.findtext("t:RestartOnFailure/t:Interval", namespaces=NS) == "PT1M"
    assert 1 <= int(settings.findtext("t:RestartOnFailure/t:Count", namespaces=NS)) <= 255
    assert settings.findtext("t:DisallowStartIfOnBatteries", namespaces=NS) == "false"
    exe = task.find("t:Actions/t:Exec", NS)
    assert exe.findtext("t:Command", namespaces=NS) == r"C:\Users\ada\AppData\Local/Programs/apc-hub/apc-hub.exe"
    assert exe.findtext("t:Arguments", namespaces=NS) == (
        r'service-run --quiet --listen 127.0.0.1:7411 --data-dir C:\Users\ada\AppData\Roaming\apc-hub')


def test_the_systemd_unit_names_the_same_command(tmp_path):
    unit = definition("linux", tmp_path, "/home/ada/.local/share/apc-hub").decode()
    assert (f'ExecStart="{tmp_path}/.local/bin/apc-hub" "serve" "--quiet" "--listen" "127.0.0.1:7411" '
            '"--data-dir" "/home/ada/.local/share/apc-hub"') in unit.splitlines()
