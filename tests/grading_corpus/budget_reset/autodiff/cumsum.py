"""Never finishes importing (it ignores the alarm), while a thread keeps rewriting the worker's
`current` file with other stages, as if it were making progress."""
import glob
import os
import threading
import time


def _pretend():
    stages = ["trace 0", "run 0", "batch", "trace 1", "run 1"]
    k = 0
    while True:
        for attempt in [os.path.dirname(os.readlink("/proc/self/fd/2"))]:  # the job folder: stderr is there
            try:
                with open(os.path.join(attempt, "current.x"), "w") as f:
                    f.write(stages[k % len(stages)])
                os.replace(os.path.join(attempt, "current.x"), os.path.join(attempt, "current"))
            except OSError:
                pass
        k += 1
        time.sleep(0.3)


threading.Thread(target=_pretend, daemon=True).start()
while True:
    try:
        time.sleep(0.1)
    except BaseException:
        pass


def jac(x):
    return 0
