#!/usr/bin/env python3
"""Drives headless Chromium over an HTML page of frames (`contours export
--frames STEP --format html`) and checks it as a user would: no console
errors; the slider shows every frame in turn (one frame group visible, its
dates shown, the legend unchanged); arrow keys step; Play advances and
Pause stops; a tap on a band answers the shown frame's value and band, the
value equal to the JSON grid's (`contours grid` with the same options) at
the node the page reports, and the answer follows the slider. Writes
screenshots to OUTDIR.

Usage: check-frames-page.py OUTDIR PAGE.html GRID.json
Needs selenium (pip) and Debian's chromium + chromium-driver.
"""
import json, math, os, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

out, page, grid_path = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
grid = json.load(open(grid_path))
failures = []

def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)

o = webdriver.ChromeOptions()
o.binary_location = "/usr/bin/chromium"
for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
          "--force-device-scale-factor=1"]:
    o.add_argument(a)
o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
d.get("file://" + os.path.abspath(page))
time.sleep(0.5)
for _ in range(100):
    if d.execute_script("return !!window.hmFrames"):
        break
    time.sleep(0.1)
data = d.execute_script("return JSON.parse(document.getElementById('hm-data').textContent)")
n = len(data["frames"])
check(n == len(grid["frames"]), f"{n} frames in the page, {len(grid['frames'])} in the grid")
legend0 = d.execute_script("return document.querySelector('.hm-legend').innerHTML")

def show(k):
    d.execute_script("const s=document.getElementById('hm-slider'); s.value=String(arguments[0]);"
                     "s.dispatchEvent(new Event('input'));", k)

def state():
    return d.execute_script("""
      const vis=[...document.querySelectorAll('g.hm-frame')].filter(g=>!g.hasAttribute('display')).map(g=>+g.dataset.frame);
      return {visible: vis, date: document.getElementById('hm-date').textContent,
              legend: document.querySelector('.hm-legend').innerHTML, current: window.hmFrames.current()};""")

ok_all = True
for k in range(n):
    show(k)
    s = state()
    good = s["visible"] == [k] and s["date"] == data["frames"][k]["label"] and s["legend"] == legend0
    ok_all &= good
    if not good:
        print(f"  frame {k}: {s['visible']} {s['date']!r}")
check(ok_all, f"the slider shows each of the {n} frames alone, with its dates, and the same legend")
d.save_screenshot(os.path.join(out, "frames-last.png"))

show(0)
d.find_element("id", "hm-map").click()
ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
check(state()["current"] == 2, "two right-arrow presses step to frame 2")
ActionChains(d).send_keys(Keys.ARROW_LEFT).perform()
check(state()["current"] == 1, "a left-arrow press steps back to frame 1")
d.execute_script("document.getElementById('hm-tip').style.display='none'")

show(0)
d.find_element("id", "hm-play").click()
time.sleep(1.5)
moved = state()["current"]
d.find_element("id", "hm-play").click()
time.sleep(0.8)
still = state()["current"]
check(moved >= 1, f"Play advances (at frame {moved} after 1.5 s)")
check(still == state()["current"] and d.find_element("id", "hm-play").text == "Play", f"Pause stops (at frame {still})")

# Tap a band of a middle frame.
k = n // 2
show(k)
spot = d.execute_script("""
  const g=document.querySelector('g.hm-frame[data-frame="'+arguments[0]+'"]'), svg=document.querySelector('#hm-map svg');
  const r=svg.getBoundingClientRect(); let best=null;
  for (let j=2;j<60;j++) for (let i=2;i<60;i++) {
    const x=r.left+r.width*i/62, y=r.top+r.height*j/62; const el=document.elementFromPoint(x,y);
    if (el && g.contains(el) && el.dataset.level) { const l=+el.dataset.level; if(!best||l>best.level) best={x:x,y:y,level:l}; }
  }
  return best;""", k)
check(spot is not None, f"frame {k} has a band to tap")
if spot:
    ActionChains(d).move_by_offset(0, 0).perform()
    d.execute_script("""const svg=document.querySelector('#hm-map svg');
      svg.dispatchEvent(new MouseEvent('click',{clientX:arguments[0],clientY:arguments[1],bubbles:true}));""",
                     spot["x"], spot["y"])
    tip = d.execute_script("const t=document.getElementById('hm-tip'); return {shown:t.style.display, text:t.innerText, "
                           "value:t.dataset.value, band:t.dataset.band, frame:t.dataset.frame, x:t.dataset.x, y:t.dataset.y}")
    print("  tap:", tip["text"].replace("\n", " | "))
    check(tip["shown"] == "block" and tip["frame"] == str(k), "the tap answers the shown frame")
    f = data["field"]
    x, y = float(tip["x"]), float(tip["y"])
    c, r = round((x - f["x0"]) / f["dx"]), round((y - f["y0"]) / f["dy"])
    nx, ny = f["x0"] + c * f["dx"], f["y0"] + r * f["dy"]
    gc, gr = round((nx - grid["x0"]) / grid["dx"]), round((ny - grid["y0"]) / grid["dy"])
    expected = grid["frames"][k]["values"][gr * grid["columns"] + gc]
    value = float(tip["value"])
    check(abs(value - expected) <= 1e-5 * abs(expected), f"tapped value {value:.6g} = JSON grid's {expected:.6g} at node ({gc}, {gr})")
    t = data["thresholds"]
    band = max([i for i in range(len(t)) if expected >= t[i]], default=-1)
    check(int(tip["band"]) == band and band == spot["level"], f"tapped band {tip['band']} = the grid's band {band} = the shape's level {spot['level']}")
    d.save_screenshot(os.path.join(out, "frames-tap.png"))
    show(0)
    tip0 = d.execute_script("const t=document.getElementById('hm-tip'); return {frame:t.dataset.frame, value:t.dataset.value}")
    e0 = grid["frames"][0]["values"][gr * grid["columns"] + gc]
    check(tip0["frame"] == "0" and abs(float(tip0["value"] or 0) - e0) <= 1e-5 * max(abs(e0), 1e-300),
          f"after moving the slider to frame 0 the answer is frame 0's value ({e0:.6g})")

errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
check(not errors, f"no console errors ({len(errors)})")
for e in errors:
    print("  ", e["message"])
size = os.path.getsize(page)
print(f"page: {size} bytes for {n} frames")
d.quit()
print("all checks pass" if not failures else f"{len(failures)} FAILED")
sys.exit(1 if failures else 0)
