#!/usr/bin/env python3
"""Drives headless Chromium over HeatMap pages and checks them as a user
would: no console errors, no network, zoom and pan change the view, a tap
on a shape shows its text (the band's level and a value inside its range,
or the bin's count), a tap outside and Escape clear it; at desktop
(1280x900) and phone (390x844, touch) sizes. Writes screenshots.

Usage: check-browser.py OUTDIR PAGE.html[@S,N,W,E] ...
(@S,N,W,E: the data's latitude and longitude extent; a tapped place must
lie in it, longitudes west to east, across ±180° when W > E.)
Needs selenium (pip) and Debian's chromium + chromium-driver.
"""
import json, os, re, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

out = sys.argv[1]
pages = sys.argv[2:]
os.makedirs(out, exist_ok=True)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def driver_for(size):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", "--force-device-scale-factor=1"]:
        o.add_argument(a)
    if size == "phone":
        o.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Mobile Safari/537.36"})
    else:
        o.add_argument("--window-size=1280,900")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def tap(d, x, y, touch):
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    a = ActionBuilder(d, mouse=PointerInput(kind, "touch" if touch else "mouse"))
    a.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
    a.perform()
    time.sleep(0.15)


def drag(d, x, y, dx, dy, touch):
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    a = ActionBuilder(d, mouse=PointerInput(kind, "touch" if touch else "mouse"))
    p = a.pointer_action
    p.move_to_location(int(x), int(y)).pointer_down()
    for i in range(1, 6):
        p.move_to_location(int(x + dx * i / 5), int(y + dy * i / 5))
    p.pointer_up()
    a.perform()
    time.sleep(0.15)


FIND = """
const svg = document.querySelector('svg.heatmap'), r = svg.getBoundingClientRect();
const want = arguments[0];
let best = null;
for (let j = 3; j < 40; j++) for (let i = 3; i < 40; i++) {
  const x = Math.round(r.left + r.width * i / 42), y = Math.round(r.top + r.height * j / 42);
  if (y > window.innerHeight - 2 || x > window.innerWidth - 2) continue;
  const el = document.elementFromPoint(x, y);
  if (!el || el.closest('.hm-controls') || el.closest('#hm-scale')) continue;
  const shape = el.closest('[data-level], [data-count]');
  if (want === 'shape' && shape && svg.contains(shape)) {
    // Prefer the highest level, else any shape.
    const lv = Number(shape.getAttribute('data-level') || 0);
    if (!best || lv > best.lv) best = {x, y, lv, level: shape.getAttribute('data-level'),
      threshold: shape.getAttribute('data-threshold'), upper: shape.getAttribute('data-upper'),
      count: shape.getAttribute('data-count'), i: shape.getAttribute('data-i')};
  }
  if (want === 'empty' && !shape && svg.contains(el)) return {x, y};
  if (want === 'east' && shape && svg.contains(shape) && (!best || x > best.x)) best = {x, y,
      level: shape.getAttribute('data-level'), count: shape.getAttribute('data-count'), i: shape.getAttribute('data-i')};
}
return best;
"""

SUP = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b", "0123456789-")
NUM = r"value (-?[0-9.]+(?:\u00d710[\u207b\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)?)"


def parse_value(text):
    m = re.search(NUM, text)
    if not m:
        return None
    s = m.group(1)
    if "\u00d710" in s:
        a, e = s.split("\u00d710")
        return float(a) * 10 ** int(e.translate(SUP))
    return float(s)


def tip(d):
    return d.execute_script("const t = document.getElementById('hm-tip');"
                            "return [getComputedStyle(t).display, t.textContent];")


def transform(d):
    return d.execute_script("return document.getElementById('hm-view').getAttribute('transform')")


def inside(text, bounds):
    m = re.search(r"(\d+\.\d\d)\u00b0([NS]), (\d+\.\d\d)\u00b0([EW])", text)
    if not m:
        return False
    lat = float(m.group(1)) * (1 if m.group(2) == "N" else -1)
    lon = float(m.group(3)) * (1 if m.group(4) == "E" else -1)
    s, n, w, e = bounds
    in_lon = w <= lon <= e if w <= e else (lon >= w or lon <= e)
    return s <= lat <= n and in_lon


for item in pages:
    page, _, extent = item.partition("@")
    bounds = [float(v) for v in extent.split(",")] if extent else None
    name = os.path.splitext(os.path.basename(page))[0]
    html = open(page, encoding="utf-8").read()
    check(not re.search(r"https?://|<link|@import| src=", html), f"{name}: no URL, link or external source in the page")
    for size in ["desktop", "phone"]:
        touch = size == "phone"
        tag = f"{name} [{size}]"
        d = driver_for(size)
        try:
            d.get("file://" + os.path.abspath(page))
            time.sleep(0.6)
            d.save_screenshot(f"{out}/{name}-{size}-1-open.png")
            resources = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            check(resources == [], f"{tag}: no network requests ({len(resources)})")
            sizes = d.execute_script("""
                const fs = [...document.querySelectorAll('.hm-legend svg text, .hm-title, .hm-credit, .hm-scale')]
                  .filter(e => e.getBoundingClientRect().width > 0)
                  .map(e => parseFloat(getComputedStyle(e).fontSize) * (e.closest('svg') ?
                    e.closest('svg').getBoundingClientRect().width / (e.closest('svg').viewBox.baseVal.width || 1) : 1));
                return fs.length ? Math.min(...fs) : 0;""")
            check(sizes == 0 or sizes >= 9.5, f"{tag}: smallest legend/title/credit text {sizes:.1f} px >= 9.5 px")
            overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(overflow <= 0, f"{tag}: no sideways scrolling ({overflow} px too wide)")
            data = json.loads(d.execute_script("return document.getElementById('hm-data').textContent"))

            # A tap on a shape shows its text.
            hit = d.execute_script(FIND, "shape")
            check(hit is not None, f"{tag}: found a shape to tap")
            if hit:
                tap(d, hit["x"], hit["y"], touch)
                shown, text = tip(d)
                d.save_screenshot(f"{out}/{name}-{size}-2-tap.png")
                check(shown == "block", f"{tag}: tap on a shape shows the tooltip")
                if hit["level"] is not None:
                    lines = data["levels"][int(hit["level"])]
                    check(all(l in text for l in lines), f"{tag}: tooltip names the band: {text!r}")
                    check(re.search(r"\d+\.\d\d\u00b0[NS], \d+\.\d\d\u00b0[EW]|^x -?[0-9.]+, y -?[0-9.]+", text) is not None,
                          f"{tag}: tooltip gives the place")
                    if bounds:
                        check(inside(text, bounds), f"{tag}: the place lies in the data's extent {bounds}")
                    v = parse_value(text)
                    lo = float(hit["threshold"])
                    hi = float(hit["upper"]) if hit["upper"] else float("inf")
                    check(v is not None and 0.5 * lo <= v <= 2 * hi,
                          f"{tag}: value {v} under the tap lies in (about) the band [{lo}, {hi}]")
                else:
                    lines = data["bins"][int(hit["i"])]
                    check(f"count: {hit['count']}" in text and all(l in text for l in lines),
                          f"{tag}: tooltip gives the bin's count and aggregates: {text!r}")
                    check("centre" in text, f"{tag}: tooltip gives the bin's centre")
                    if bounds:
                        check(inside(text, bounds), f"{tag}: the centre lies in the data's extent {bounds}")
                # Escape clears it.
                d.find_element("tag name", "body").send_keys(Keys.ESCAPE)
                time.sleep(0.1)
                check(tip(d)[0] == "none", f"{tag}: Escape clears the tooltip")
                # A tap outside a shape clears it.
                tap(d, hit["x"], hit["y"], touch)
                empty = d.execute_script(FIND, "empty")
                if empty:
                    tap(d, empty["x"], empty["y"], touch)
                    check(tip(d)[0] == "none", f"{tag}: a tap on the map outside the shapes clears the tooltip")
                tap(d, hit["x"], hit["y"], touch)
                below = d.execute_script("const e = document.querySelector('.hm-credit, .hm-legend, .hm-title');"
                                         "if (!e) return [2, window.innerHeight - 2];"
                                         "const r = e.getBoundingClientRect();"
                                         "return [r.left + 5, r.top + r.height / 2];")
                tap(d, below[0], below[1], touch)
                check(tip(d)[0] == "none", f"{tag}: a tap outside the map clears the tooltip")

            # Across ±180°: the easternmost shape lies east of the antimeridian, and a tap there
            # gives a western longitude inside the data's extent.
            if bounds and bounds[2] > bounds[3]:
                east = d.execute_script(FIND, "east")
                if east:
                    tap(d, east["x"], east["y"], touch)
                    shown, text = tip(d)
                    check(shown == "block" and "\u00b0W" in text and inside(text, bounds),
                          f"{tag}: a tap east of 180\u00b0 gives a western place in the extent: {text!r}")
                    d.save_screenshot(f"{out}/{name}-{size}-2-tap-east.png")
                    d.find_element("tag name", "body").send_keys(Keys.ESCAPE)

            # Zoom: button, wheel or keys; pan: drag and arrows.
            t0 = transform(d)
            d.find_element("id", "hm-zoom-in").click()
            time.sleep(0.1)
            t1 = transform(d)
            check(t1 != t0 and "scale(1.5" in t1, f"{tag}: + button zooms ({t0} -> {t1})")
            box = d.execute_script("const r = document.querySelector('svg.heatmap').getBoundingClientRect();"
                                   "return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];")
            drag(d, box[0], box[1], box[2] * 0.2, box[3] * 0.1, touch)
            t2 = transform(d)
            check(t2 != t1, f"{tag}: drag pans ({t1} -> {t2})")
            d.save_screenshot(f"{out}/{name}-{size}-3-zoomed.png")
            if not touch:
                d.execute_script("document.getElementById('hm-map').dispatchEvent(new WheelEvent('wheel',"
                                 "{deltaY: -300, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}))",
                                 box[0], box[1])
                t3 = transform(d)
                check(t3 != t2, f"{tag}: wheel zooms ({t2} -> {t3})")
            m = d.find_element("id", "hm-map")
            d.execute_script("arguments[0].focus()", m)
            m.send_keys("0")
            if touch:
                # Pinch: two fingers move apart about the centre.
                a = ActionBuilder(d)
                f1 = a.add_pointer_input(interaction.POINTER_TOUCH, "f1")
                f2 = a.add_pointer_input(interaction.POINTER_TOUCH, "f2")
                cx, cy = int(box[0]), int(box[1])
                f1.create_pointer_move(x=cx - 20, y=cy, origin="viewport")
                f2.create_pointer_move(x=cx + 20, y=cy, origin="viewport")
                f1.create_pointer_down(button=0)
                f2.create_pointer_down(button=0)
                for i in range(1, 6):
                    f1.create_pointer_move(x=cx - 20 - 12 * i, y=cy, origin="viewport", duration=30)
                    f2.create_pointer_move(x=cx + 20 + 12 * i, y=cy, origin="viewport", duration=30)
                f1.create_pointer_up(button=0)
                f2.create_pointer_up(button=0)
                a.perform()
                time.sleep(0.2)
                t5 = transform(d)
                check("scale(1.0000)" not in t5, f"{tag}: pinch zooms ({t5})")
            else:
                ActionChains(d).move_to_element_with_offset(m, 10, 10).double_click().perform()
                time.sleep(0.1)
                t5 = transform(d)
                check("scale(2.0000)" in t5, f"{tag}: double-click zooms in twofold ({t5})")
            m.send_keys("0")
            check(transform(d).endswith("scale(1.0000)") and transform(d).startswith("translate(0.00 0.00)"),
                  f"{tag}: key 0 resets the view")
            m.send_keys("+")
            m.send_keys(Keys.ARROW_LEFT)
            t4 = transform(d)
            check("scale(1.5" in t4 and not t4.startswith("translate(0.00 0.00)"), f"{tag}: keys zoom and pan ({t4})")
            # Strokes stay one width when zoomed (non-scaling).
            ve = d.execute_script("const p = document.querySelector('svg.heatmap path.basemap, svg.heatmap path');"
                                  "return p ? getComputedStyle(p).vectorEffect : 'none';")
            check(ve == "non-scaling-stroke", f"{tag}: strokes do not scale with zoom ({ve})")
            m.send_keys("0")
            logs = [l for l in d.get_log("browser") if l["level"] in ("SEVERE", "WARNING")]
            check(logs == [], f"{tag}: no console errors or warnings {logs[:3]}")
        finally:
            d.quit()

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
