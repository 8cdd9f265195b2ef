"""Runs a command on a pseudo-terminal, as a user at a terminal would.

argv: working folder, JSON list of [text to wait for, keys to type] steps, the command.
Prints JSON {"code": exit code, "output": everything the terminal showed}.
Each wait and the final drain are bounded, so a hung command fails its test.
"""
import json, os, pty, select, sys, time

cwd, steps, command = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(cwd)
    os.execvp(command[0], command)

output = b''

def read_some(timeout):
    global output
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return False
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # the other side closed: the process ended
        return None
    if not chunk:
        return None
    output += chunk
    return True

offset = 0
for expected, keys in steps:
    deadline = time.time() + 30
    while expected.encode() not in output[offset:] and time.time() < deadline:
        if read_some(0.2) is None:
            break
    time.sleep(0.2)  # readline shows the prompt before it listens for keys
    offset = len(output)
    os.write(fd, keys.encode())

deadline = time.time() + 60
while time.time() < deadline and read_some(1) is not None:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(json.dumps({'code': os.waitstatus_to_exitcode(status), 'output': output.decode('utf8', 'replace')}))
