"""The encode stage end to end: `touchdeck-encode-sample` (the real DeckMedia encoder: libyuv + libx264
through libavcodec) encodes a moving text-like pattern; PyAV decodes it and PSNR-Y is measured against the
source; ffprobe reads the colour description from the SPS."""

import json
import subprocess

from h264check import decode, encode, luma, psnr, reference_luma, source_frames

FRAMES = 30
CHECKED = {0, 1, 14, 15, 29}


def test_text_pattern_at_1080p_decodes_at_40_db_with_keyframes_where_asked(tmp_path):
    out = tmp_path / "text.h264"
    records, summary, _ = encode(out, "--frames", FRAMES, "--keyframe-at", 15, "--encoder", "x264")
    assert summary["backend"] == "x264" and summary["frames"] == FRAMES
    assert [r["frame"] for r in records if r["keyframe"]] == [0, 15]
    decoded = decode(out)
    assert len(decoded) == FRAMES
    assert [i for i, f in enumerate(decoded) if f.key_frame] == [0, 15]
    assert {(f.width, f.height) for f in decoded} == {(1920, 1080)}
    sources = source_frames(1920, 1080, FRAMES, CHECKED)
    scores = {i: psnr(luma(decoded[i]), reference_luma(sources[i], 1920, 1080)) for i in sorted(CHECKED)}
    print("PSNR-Y", {i: round(s, 2) for i, s in scores.items()}, "bytes", summary["bytes"])
    assert min(scores.values()) >= 40, scores


def test_fitted_720p_stream_has_the_fitted_size_and_follows_the_source(tmp_path):
    out = tmp_path / "fitted.h264"
    records, _, _ = encode(out, "--frames", 10, "--max-side", 1280, "--encoder", "x264")
    assert {(r["width"], r["height"]) for r in records} == {(1280, 720)}
    decoded = decode(out)
    assert len(decoded) == 10 and {(f.width, f.height) for f in decoded} == {(1280, 720)}
    sources = source_frames(1920, 1080, 10, {0, 9})
    key, last = (psnr(luma(decoded[i]), reference_luma(sources[i], 1920, 1080, (1280, 720))) for i in (0, 9))
    print("PSNR-Y against an area-scaled reference: keyframe", round(key, 2), "frame 9", round(last, 2))
    # libyuv's box filter and swscale's area filter disagree on one-pixel strokes: even a lossless encode
    # (--crf 0) scores only ~30.4 dB against this reference, so this checks size, alignment and matrix
    # (measured: the frame five scroll steps later scores ~12 dB, full-range BT.709 ~23 dB), not the
    # encoder's fidelity, which the 1:1 test above measures.
    assert key >= 28, key
    assert last >= 20, last


def test_the_sps_says_bt601_limited_range_with_srgb_primaries_and_transfer(tmp_path):
    out = tmp_path / "colour.h264"
    encode(out, "--frames", 2, "--width", 640, "--height", 360, "--encoder", "x264")
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_streams", "-of", "json",
                            str(out)], capture_output=True, text=True, check=True)
    stream = json.loads(probe.stdout)["streams"][0]
    assert stream["color_range"] == "tv"
    assert stream["color_space"] == "smpte170m"
    assert stream["color_primaries"] == "bt709"
    assert stream["color_transfer"] == "iec61966-2-1"
    assert stream["has_b_frames"] == 0


def test_hardware_encoders_that_cannot_open_fall_back_to_x264_with_one_line(tmp_path):
    for choice in ("vaapi", "nvenc", "auto"):
        out = tmp_path / f"{choice}.h264"
        records, summary, errors = encode(out, "--frames", 3, "--width", 640, "--height", 360, "--encoder", choice,
                                          "--vaapi-device", "/nonexistent/renderD128", "--nvenc-gpu", 99)
        assert summary["backend"] == "x264"
        assert len(errors) == 1 and errors[0].endswith("using libx264"), errors
        assert [r["keyframe"] for r in records] == [True, False, False]
        assert len(decode(out)) == 3
