"""`make bench`, encode stage: the DeckMedia encoder (touchdeck-encode-sample) on the 1080p text pattern.

Prints milliseconds per frame for convert(+scale) and encode (ultrafast vs superfast), then CPU seconds per
frame of the whole encode process against ffmpeg's own libx264 (`-preset ultrafast -tune zerolatency`) fed
the same raw frames in the same run, and the PSNR-Y / bitrate our default settings reach."""

import os
import subprocess
import tempfile
import pathlib

from h264check import SAMPLE, decode, encode, luma, psnr, reference_luma, source_frames

FRAMES = 120
FPS = 60
WIDTH, HEIGHT = 1920, 1080


def cpu_seconds_per_frame(consumer):
    """CPU (user + system) of `consumer` reading FRAMES raw frames of the pattern from the tool's stdout."""
    source = subprocess.Popen([str(SAMPLE), "--emit-source", "--frames", str(FRAMES)], stdout=subprocess.PIPE)
    process = subprocess.Popen(consumer, stdin=source.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    source.stdout.close()
    _, status, usage = os.wait4(process.pid, 0)
    source.wait()
    assert os.waitstatus_to_exitcode(status) == 0, consumer
    return (usage.ru_utime + usage.ru_stime) / FRAMES


def stage_times(preset, max_side):
    with tempfile.TemporaryDirectory() as folder:
        _, summary, _ = encode(pathlib.Path(folder) / "s.h264", "--frames", FRAMES, "--encoder", "x264",
                               "--preset", preset, "--max-side", max_side)
    return summary["convertMs"], summary["encodeMs"]


def quality(preset):
    """PSNR-Y (mean over sampled frames) and the bitrate at FPS for the text pattern."""
    checked = {0, 1, 30, 59}
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / "q.h264"
        _, summary, _ = encode(out, "--frames", 60, "--encoder", "x264", "--preset", preset)
        decoded = decode(out)
    sources = source_frames(WIDTH, HEIGHT, 60, checked)
    scores = [psnr(luma(decoded[i]), reference_luma(sources[i], WIDTH, HEIGHT)) for i in sorted(checked)]
    return sum(scores) / len(scores), min(scores), summary["bytes"] * 8 / (60 / FPS) / 1e6


def main():
    print("encode stage (DeckMedia, 1080p text pattern, "
          f"{os.cpu_count()} cores, {FRAMES} frames; single runs on a shared machine vary by ~20 %):")
    for preset in ("ultrafast", "superfast"):
        convert, encode_ms = stage_times(preset, 3840)
        scaled, scaled_encode = stage_times(preset, 1280)
        print(f"  {preset:9}  convert 1080p {convert:5.2f} ms  encode 1080p {encode_ms:5.2f} ms/frame   "
              f"convert+scale →720p {scaled:5.2f} ms  encode 720p {scaled_encode:5.2f} ms/frame")
    baseline = cpu_seconds_per_frame(
        ["ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "bgra", "-s", f"{WIDTH}x{HEIGHT}", "-r", str(FPS),
         "-i", "-", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p",
         "-f", "h264", "-y", "/dev/null"])
    print(f"  ffmpeg libx264 ultrafast zerolatency (baseline)  {baseline * 1000:6.2f} ms CPU/frame")
    for preset in ("ultrafast", "superfast"):
        ours = cpu_seconds_per_frame([str(SAMPLE), "--input", "-", "--frames", str(FRAMES), "--preset", preset,
                                      "--encoder", "x264"])
        print(f"  DeckMedia {preset:9} (convert + encode)       {ours * 1000:6.2f} ms CPU/frame  "
              f"= {ours / baseline:.2f}× ffmpeg baseline")
    for preset in ("ultrafast", "superfast"):
        mean, worst, mbits = quality(preset)
        print(f"  {preset:9} quality: PSNR-Y mean {mean:.1f} dB (worst {worst:.1f}) at {mbits:.1f} Mbit/s "
              f"(60 frames at {FPS} fps, keyframe included)")


if __name__ == "__main__":
    main()
