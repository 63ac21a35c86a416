"""The private sound server of the live sound tests (scripts/with-desktop's PulseAudio, or scripts/with-pipewire's
pipewire-pulse): its sinks and streams through `pactl`, an app playing a test tone through `paplay`, and the
analysis of what reached the device (FFT peak, level, lost packets)."""

import pathlib
import subprocess
import threading
import time
import wave

import numpy

SPEAKERS = "touchdeck_null"  # the speakers' sink the wrappers load
OURS = "touchdeck_sound"  # the host's own sink while a device listens
RATE = 48000
AMPLITUDE = 0.5


def pactl(*args):
    return subprocess.run(["pactl", *args], capture_output=True, text=True, check=True, timeout=20).stdout


def default_sink():
    return pactl("get-default-sink").strip()


def sinks():
    """Sink name → index."""
    rows = [line.split("\t") for line in pactl("list", "short", "sinks").splitlines() if line.strip()]
    return {row[1]: int(row[0]) for row in rows}


def sink_inputs():
    """Stream index → index of the sink it plays on."""
    rows = [line.split("\t") for line in pactl("list", "short", "sink-inputs").splitlines() if line.strip()]
    return {int(row[0]): int(row[1]) for row in rows}


def sources():
    """Source name → index."""
    rows = [line.split("\t") for line in pactl("list", "short", "sources").splitlines() if line.strip()]
    return {row[1]: int(row[0]) for row in rows}


def source_outputs():
    """Recording stream index → index of the source it records."""
    rows = [line.split("\t") for line in pactl("list", "short", "source-outputs").splitlines() if line.strip()]
    return {int(row[0]): int(row[1]) for row in rows}


def volume_and_mute(sink):
    return pactl("get-sink-volume", sink).split("\n")[0], pactl("get-sink-mute", sink).strip()


def eventually(check, timeout=15):
    """Polls `check` until true or `timeout` seconds pass; returns its last answer (no timing is asserted)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = check()
        if answer or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def tone_file(folder, seconds):
    """A WAV of 48 kHz stereo s16le: left a 1 kHz sine at half scale, right a sample counter 1…32767 (never 0),
    so every lost or repeated sample shows as a break in the count."""
    path = pathlib.Path(folder) / f"tone-{seconds}s.wav"
    frames = int(seconds * RATE)
    index = numpy.arange(frames)
    left = numpy.round(numpy.sin(2 * numpy.pi * 1000 * index / RATE) * AMPLITUDE * 32767).astype(numpy.int16)
    right = (index % 32767 + 1).astype(numpy.int16)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(numpy.column_stack([left, right]).astype("<i2").tobytes())
    return path


class App:
    """A program playing a file with `paplay` (on the default sink unless `device` is given)."""

    def __init__(self, path, device=None):
        argv = ["paplay", *([f"--device={device}"] if device else []), str(path)]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.index = None

    def stream(self, timeout=10):
        """Its sink-input index, once it plays."""
        def mine():
            # paplay names its client after itself; its one stream is the newest sink input.
            inputs = sink_inputs()
            return max(inputs) if inputs else None
        self.index = eventually(mine, timeout)
        assert self.index is not None, "the app's stream never appeared"
        return self.index

    def sink(self):
        return sink_inputs().get(self.index)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


class MonitorRecorder:
    """Records a monitor source with `parec` on a thread; `mark()` splits what came before from what came after,
    and `peaks()` gives the peak |sample| (0…1) and sample count of each part. A null sink with nothing playing
    hands its monitor little or nothing, so the part before (the tone playing) proves the recorder hears."""

    def __init__(self, source):
        # A short latency: parec would otherwise hand over its recording in ~2 s pieces.
        argv = ["parec", f"--device={source}", "--format=s16le", "--rate=48000", "--channels=2", "--raw",
                "--latency-msec=20"]
        before = source_outputs()
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE)
        self.source = source
        self.index = eventually(lambda: next(iter(set(source_outputs()) - set(before)), None))
        self.parts = [bytearray()]
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while chunk := self.process.stdout.read1(4096):
            self.parts[-1] += chunk

    def pin(self):
        """Puts the recorder back on its source. A server without a microphone takes the default sink's monitor
        as its default source, and recorders follow that default (PulseAudio) or the session manager moves them
        (WirePlumber) — onto our sink's monitor while routed; parec has no --no-move. True once it records its
        source again."""
        pactl("move-source-output", str(self.index), self.source)
        wanted = sources().get(self.source)
        return eventually(lambda: source_outputs().get(self.index) == wanted, timeout=2)

    def mark(self):
        self.parts.append(bytearray())

    def peaks(self):
        self.process.terminate()
        self.process.wait(10)
        self.thread.join(10)
        found = []
        for part in self.parts:
            samples = numpy.frombuffer(bytes(part[: len(part) // 4 * 4]), dtype="<i2").astype(numpy.int32)
            found.append((int(numpy.abs(samples).max()) / 32767 if len(samples) else 0.0, len(samples)))
        return found


class Received:
    """The tone packets that reached the device: frequency, level and the samples lost on the way."""

    def __init__(self, packets):
        self.packets = [numpy.array(p.samples, dtype=numpy.int16).reshape(-1, 2) for p in packets]
        self.tone = [p for p in self.packets if numpy.count_nonzero(p[:, 1]) == len(p)]

    def gaps(self):
        """(sample position, samples missing there) for every break in the counter on the right channel that our
        path lost. Zeros (the app's stream running dry for a moment) are not tone and are skipped: they delay, they
        lose nothing. A break right after such a silence, no longer than it, is the server keeping time: when an
        app's stream underruns, the server plays silence and then drops the samples that came late (PulseAudio's
        and PipeWire's playback queue alike), so the app lost them, before anything of ours saw them."""
        return [(at, missing) for at, missing, silence in self.breaks() if missing > silence]

    def breaks(self):
        """(sample position, samples missing there, zero samples just before it) for every break in the counter."""
        right = numpy.concatenate([p[:, 1] for p in self.packets]).astype(numpy.int64)
        where = numpy.flatnonzero(right)
        steps = (numpy.diff(right[where]) - 1) % 32767
        silences = numpy.diff(where) - 1
        return [(int(where[i + 1]), int(steps[i]), int(silences[i])) for i in numpy.flatnonzero(steps)]

    def lost_samples(self):
        return sum(missing for _, missing in self.gaps())

    def peak_hz(self):
        left = numpy.concatenate([p[:, 0] for p in self.tone]).astype(numpy.float64)
        spectrum = numpy.abs(numpy.fft.rfft(left * numpy.hanning(len(left))))
        return numpy.fft.rfftfreq(len(left), 1 / RATE)[int(numpy.argmax(spectrum))]

    def level(self):
        """The left channel's RMS as a fraction of full scale (a half-scale sine: 0.354)."""
        left = numpy.concatenate([p[:, 0] for p in self.tone]).astype(numpy.float64) / 32767
        return float(numpy.sqrt(numpy.mean(left**2)))
