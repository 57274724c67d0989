#!/usr/bin/python3
"""report_browser.py PAGE OUT_PREFIX [FIGURE_SECTION...]

Opens a report page (ssdctl report) in headless Chromium, driven over its
DevTools protocol (a pipe-less local port, 127.0.0.1; no network), and
prints one line per finding, then `ok` when there is none:
  - console: a console message of level warning or error, or an uncaught
    exception, while the page loads;
  - empty: a <section> with an id whose text, figures and tables add up to
    nothing but its heading;
  - figure: a <figure> whose <svg> has no area on screen (under 100 x 50
    CSS pixels), or none and no "Not drawn" note;
  - missing: a section named on the command line ("drive-a-tbw", say)
    whose figures are not all drawn (a "Not drawn" note counts missing),
    or that is not there at all;
  - fetch: a resource the page asked for (it must need none);
  - print: with the print styles on A4's width (inside the page's
    margins), a table, figure or paragraph wider than the sheet.
It also writes OUT_PREFIX.png (a screenshot of the whole page) and
OUT_PREFIX.pdf (Chromium's print on A4), and prints `pdf_pages N`,
`pdf_sizes WxH...` (the pages' sizes in points), `png_bytes N` and for each
section `drawn ID FIGURES NOTES` for the caller to check.
"""
import base64, json, os, re, shutil, subprocess, sys, tempfile, time
import websocket

page, prefix, must = sys.argv[1], sys.argv[2], set(sys.argv[3:])
A4_CSS_PX = 703		# 210 mm less the page's margins (2 x 12 mm), at 96 dpi
profile = tempfile.mkdtemp(prefix="ssdt-chromium.")
proc = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
     "--no-first-run", "--disable-background-networking",
     "--disable-component-update", "--disable-sync",
     "--disable-default-apps", "--remote-debugging-port=0",
     "--remote-debugging-address=127.0.0.1", "--hide-scrollbars",
     "--user-data-dir=" + profile, "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
findings = []
try:
    port_file = os.path.join(profile, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(port_file) and open(port_file).read().count("\n"):
            break
        time.sleep(0.1)
    port = open(port_file).read().split("\n")[0]
    import urllib.request
    targets = json.load(urllib.request.urlopen(
        "http://127.0.0.1:%s/json/list" % port, timeout=10))
    ws_url = next(t["webSocketDebuggerUrl"] for t in targets
                  if t["type"] == "page")
    ws = websocket.create_connection(ws_url, timeout=60)
    seq = [0]
    events = []

    def cmd(method, **params):
        seq[0] += 1
        ws.send(json.dumps({"id": seq[0], "method": method,
                            "params": params}))
        while True:
            m = json.loads(ws.recv())
            if m.get("id") == seq[0]:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            events.append(m)

    for d in ("Page", "Runtime", "Log", "Network"):
        cmd(d + ".enable")
    cmd("Emulation.setDeviceMetricsOverride", width=1100, height=900,
        deviceScaleFactor=1, mobile=False)
    cmd("Page.navigate", url="file://" + os.path.abspath(page))
    deadline = time.time() + 60
    while not any(e.get("method") == "Page.loadEventFired" for e in events):
        if time.time() > deadline:
            raise RuntimeError("the page did not load in 60 s")
        events.append(json.loads(ws.recv()))
    time.sleep(0.5)
    check = r"""
(() => {
  const out = [];
  for (const s of document.querySelectorAll('section[id]')) {
    const figs = s.querySelectorAll(':scope > figure');
    const rest = [...s.children].filter(c => !/^H[1-6]$/.test(c.tagName));
    const text = rest.map(c => c.innerText.trim()).join('');
    if (rest.length === 0 || (text === '' && figs.length === 0))
      out.push(['empty', s.id]);
    let drawn = 0, notes = 0;
    for (const f of figs) {
      const svg = f.querySelector('svg');
      if (svg) {
        const r = svg.getBoundingClientRect();
        if (r.width < 100 || r.height < 50)
          out.push(['figure', s.id + ' ' + r.width + 'x' + r.height]);
        else drawn++;
      } else if (f.querySelector('.nofig')) notes++;
      else out.push(['figure', s.id + ' neither a graph nor a note']);
    }
    out.push(['section', s.id, drawn, notes]);
  }
  return JSON.stringify(out);
})()"""
    res = json.loads(cmd("Runtime.evaluate", expression=check,
                         returnByValue=True)["result"]["value"])
    seen = {r[1] for r in res if r[0] == "section"}
    findings += ["missing %s: no such section" % m for m in sorted(must - seen)]
    for r in res:
        if r[0] == "section":
            print("drawn %s %d %d" % tuple(r[1:]))
            if r[1] in must and (r[2] == 0 or r[3] > 0):
                findings.append("missing %s: %d drawn, %d not" % tuple(r[1:]))
        else:
            findings.append("%s %s" % tuple(r))
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            findings.append("console exception " +
                            p["exceptionDetails"].get("text", ""))
        elif m == "Runtime.consoleAPICalled" and \
                p.get("type") in ("error", "warning", "assert"):
            findings.append("console %s" % p.get("type"))
        elif m == "Log.entryAdded" and \
                p["entry"].get("level") in ("error", "warning"):
            findings.append("console " + p["entry"].get("text", "")[:200])
        elif m == "Network.requestWillBeSent" and \
                not p["request"]["url"].startswith("file://"):
            findings.append("fetch " + p["request"]["url"][:200])
    png = base64.b64decode(cmd("Page.captureScreenshot", format="png",
                               captureBeyondViewport=True)["data"])
    open(prefix + ".png", "wb").write(png)
    # printed: the print styles on a sheet's width of A4 inside the page's
    # 12 mm margins (186 mm, 703 CSS pixels): nothing wider than that
    cmd("Emulation.setEmulatedMedia", media="print")
    cmd("Emulation.setDeviceMetricsOverride", width=A4_CSS_PX, height=1000,
        deviceScaleFactor=1, mobile=False)
    time.sleep(0.3)
    wide = json.loads(cmd("Runtime.evaluate", returnByValue=True, expression=r"""
(() => JSON.stringify([...document.querySelectorAll('table, figure, p, h1, h2, h3')]
  .map(e => [e.tagName + (e.closest('section[id]') ? ' in ' +
             e.closest('section[id]').id : ''), e.getBoundingClientRect().right])
  .filter(x => x[1] > %d)))()""" % (A4_CSS_PX + 1))["result"]["value"])
    for what, right in wide[:5]:
        findings.append("print: %s reaches %.0f px, past A4's %d" %
                        (what, right, A4_CSS_PX))
    pdf = base64.b64decode(cmd("Page.printToPDF", paperWidth=8.27,
                               paperHeight=11.69, preferCSSPageSize=True,
                               printBackground=True)["data"])
    open(prefix + ".pdf", "wb").write(pdf)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]",
                       pdf)
    print("pdf_pages", len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)))
    print("pdf_sizes", " ".join(sorted({"%.0fx%.0f" % (float(w), float(h))
                                        for w, h in boxes})) or "none")
    print("png_bytes", len(png))
    ws.close()
finally:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(profile, ignore_errors=True)
for f in findings:
    print(f)
if not findings:
    print("ok")
