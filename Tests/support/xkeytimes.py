"""An X client that records when each key press reached it: `python xkeytimes.py OUT_FILE`.

Like xkeys.py it opens a window under $DISPLAY and takes the input focus; each key press is appended to OUT_FILE
as one line `TIME TEXT`, TIME being the X server's own timestamp of the event (milliseconds). So a test measures
the gaps between keys as the X server saw them arrive, not as a test process happened to read them.
"""

import sys

from xkeys import record


def main(out_path):
    # One line per key: the X server's timestamp of the press, then its text.
    record(out_path, lambda event, text, keysym: f"{event.xkey.time} {text}\n", name="xkeytimes")


if __name__ == "__main__":
    main(sys.argv[1])
