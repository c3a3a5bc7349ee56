"""A replot on another CPU keeps the committed SVG when only float noise moved
(``experiments.svg_noise``): the clean-clone promise that ``make figures`` leaves ``git status``
clean. A real change still rewrites the file and the folder's PROVENANCE.json."""

import json
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from infosets.experiments import session  # noqa: E402
from infosets.experiments.session import Session  # noqa: E402
from infosets.experiments.svg_noise import canonical_ids, same_drawing  # noqa: E402

OLD = (b'<clipPath id="p68a53c0921"><rect x="58.550938" y="23.951133"/></clipPath>'
       b'<path d="M 58.550938 189.005742" clip-path="url(#p68a53c0921)"/>'
       b'<use xlink:href="#DejaVuSans-38" x="12.5"/>')


def test_hashed_ids_are_renamed_by_first_appearance():
    assert canonical_ids(OLD).count(b"pid0") == 2 and b"68a53c0921" not in canonical_ids(OLD)


def test_noise_in_the_sixth_decimal_and_renamed_clip_paths_are_the_same_drawing():
    noisy = OLD.replace(b"58.550938", b"58.550937").replace(b"p68a53c0921", b"p78fd5141e3")
    assert noisy != OLD and same_drawing(OLD, noisy)


def test_a_moved_point_another_glyph_or_another_element_is_a_new_drawing():
    assert not same_drawing(OLD, OLD.replace(b"189.005742", b"189.015742"))   # 0.01 pt
    assert not same_drawing(OLD, OLD.replace(b"DejaVuSans-38", b"DejaVuSans-39"))  # a label
    assert not same_drawing(OLD, OLD + b'<path d="M 1 2"/>')
    two_clips = OLD.replace(b'clip-path="url(#p68a53c0921)"', b'clip-path="url(#p0000000000)"')
    assert not same_drawing(OLD, two_clips)  # the path now clips to another (unknown) box


def test_a_recoloured_element_is_a_new_drawing():
    """Hex digits read as numbers: "#00e500" and "#00e600" both held "0e5"/"0e6", which is 0
    either way, so a recoloured SVG was kept as the committed file."""
    green = OLD + b'<path style="fill: #00e500"/>'
    assert not same_drawing(green, green.replace(b"#00e500", b"#00e600"))
    assert not same_drawing(green, green.replace(b"#00e500", b"#00e501"))


def _draw(s, y):
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], y)
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    s.save_figure(fig, "line")
    plt.close(fig)


def test_a_replot_with_noise_keeps_the_file_and_provenance(monkeypatch):
    monkeypatch.setattr(session, "PUBLISHED_PRESETS", {"smoke": ""})
    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    _draw(s, [0.0, 1.0, 0.5])
    svg, prov = s.figures_dir / "line.svg", s.figures_dir / "PROVENANCE.json"
    # the committed file as another CPU wrote it: six-decimal coordinates off by 1e-6 pt,
    # clip paths under other hashed names
    committed = re.sub(rb"(\d+\.\d{5})(\d)", lambda m: m.group(1) + b"%d" % (int(m.group(2)) ^ 1),
                       svg.read_bytes())
    committed = re.sub(rb"\bp[0-9a-f]{10}\b", b"p0123456789", committed)
    assert committed != svg.read_bytes()
    svg.write_bytes(committed)
    prov.write_text(prov.read_text().replace('"seed": 0', '"seed": 0, "marker": 1'))

    again = Session.create("quickstart", "smoke", seed=0, workers=1)
    _draw(again, [0.0, 1.0, 0.5])
    assert svg.read_bytes() == committed and json.loads(prov.read_text())["marker"] == 1

    moved = Session.create("quickstart", "smoke", seed=0, workers=1)
    _draw(moved, [0.0, 1.0, 0.6])
    assert svg.read_bytes() != committed and "marker" not in json.loads(prov.read_text())
