"""Runs a command in a pseudo-terminal and follows a script of expect/send steps.

usage: drive-pty.py STEPS_JSON COMMAND [ARGS...]
STEPS_JSON is a list of ["expect", text] and ["send", text]. Everything the command printed is copied
to stdout; the exit status is the command's, or 124 when an expectation times out.
"""
import json
import os
import pty
import select
import sys
import time

TIMEOUT = 30.0


def main() -> int:
    steps = json.loads(sys.argv[1])
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[2], sys.argv[2:])
    seen = b""

    def read(deadline: float) -> bool:
        nonlocal seen
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
        if not ready:
            return True
        try:
            data = os.read(fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        seen += data
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return True

    position = 0
    for kind, text in steps:
        if kind == "send":
            os.write(fd, text.encode())
            continue
        deadline = time.time() + TIMEOUT
        wanted = text.encode()
        while seen.find(wanted, position) < 0:
            if time.time() > deadline or not read(deadline):
                sys.stderr.write(f"timed out waiting for {text!r}\n")
                os.kill(pid, 9)
                return 124
        position = seen.find(wanted, position) + len(wanted)
    deadline = time.time() + TIMEOUT
    while time.time() < deadline and read(deadline):
        pass
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


sys.exit(main())
