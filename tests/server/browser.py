#!/usr/bin/env python3
"""The page of `koma serve` in a real browser: Debian's chromium driven by
chromedriver over the W3C WebDriver protocol (plain HTTP and JSON, so no
package beyond Python's own library).

It starts a server on a free port, opens the page, plays the game of
tests/server/games.txt to checkmate by clicking (its drops from the hand and
its promotions through the promotion dialog), checks the result shown,
then breaks a variant in the editor and checks the message at its line and
column, draws a movement diagram and runs perft. Screenshots go to --shots.
Exits non-zero on any failure.
"""

import argparse
import base64
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROME_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,900",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """The few WebDriver commands the test needs."""

    def __init__(self, port, user_data_dir):
        self.base = f"http://127.0.0.1:{port}"
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {
                        "binary": "/usr/bin/chromium",
                        "args": CHROME_ARGS + [f"--user-data-dir={user_data_dir}"],
                    },
                }
            }
        }
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"webdriver {method} {path}: {e.read().decode()}") from None

    def s(self, path):
        return f"/session/{self.session}{path}"

    def get(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find(self, css):
        found = self.call("POST", self.s("/elements"), {"using": "css selector", "value": css})
        return [next(iter(e.values())) for e in found]

    def wait(self, css, timeout=15, what=None):
        end = time.time() + timeout
        while time.time() < end:
            found = self.find(css)
            if found:
                return found[0]
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what or css}")

    def click(self, css):
        # The page redraws as answers come: an element found may be gone
        # by the time it is clicked; look it up again.
        for attempt in range(5):
            el = self.wait(css)
            try:
                self.call("POST", self.s(f"/element/{el}/click"), {})
                return
            except RuntimeError as e:
                if "stale element" not in str(e) or attempt == 4:
                    raise
                time.sleep(0.1)

    def script(self, code, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": code, "args": list(args)})

    def text(self, css):
        el = self.wait(css)
        return self.call("GET", self.s(f"/element/{el}/text"))

    def screenshot(self, path):
        png = base64.b64decode(self.call("GET", self.s("/screenshot")))
        with open(path, "wb") as f:
            f.write(png)
        print(f"browser: screenshot {path}")

    def quit(self):
        try:
            self.call("DELETE", self.s(""))
        except Exception:
            pass


def wait_until(check, what, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def game_id(d):
    """The server's id of the game shown (in the download link), or None."""
    href = d.script("return document.getElementById('download').getAttribute('href')")
    m = re.search(r"/api/games/([^/]+)/", href or "")
    return m.group(1) if m else None


def new_game(d, what="a new game"):
    """Click 'New game' and wait for the server's answer: a game with another
    id and no moves. Waiting for an empty move list alone is not enough when
    the game before had no moves either (a game from an SFEN): the page would
    still show the old one."""
    before = game_id(d)
    d.click("#new-game")
    wait_until(lambda: game_id(d) not in (None, before) and moves_shown(d) == [], what)


def select(d, select_id, value):
    d.click(f'#{select_id} option[value="{value}"]')


def opens_on_the_default(d, url):
    """The page opens on the game the catalogue marks as koma's default."""
    with urllib.request.urlopen(url.rstrip("/") + "/api/variants") as r:
        marked = [v["slug"] for v in json.load(r) if v.get("default")]
    assert len(marked) == 1, f"the catalogue marks {marked} as the default"
    wait_until(lambda: d.script("return document.getElementById('variant').value") == marked[0]
               and len(d.find(".cell")) > 0, f"the page opened on {marked[0]}")
    shown = d.script("return document.getElementById('variant').value")
    print(f"browser: the page opens on {shown}")


def play_game(d, variant, moves, shots):
    select(d, "variant", variant)
    select(d, "mode", "people")
    new_game(d, "the new game")
    wait_until(lambda: d.script("return window.document.getElementById('title').textContent") != ""
               and d.script("return document.getElementById('sfen').value.length > 0"),
               "the new game's title and SFEN")
    wait_until(lambda: variant in d.script("return JSON.stringify(document.getElementById('variant').value)"),
               "the variant chosen")
    drops = promotions = 0
    for i, mv in enumerate(moves):
        turn = "sente" if i % 2 == 0 else "gote"
        m = re.fullmatch(r"(\+?[A-Z])\*(\d+[a-z])", mv)
        if m:
            d.click(f'.in-hand[data-color="{turn}"][data-letter="{m.group(1)}"]')
            d.wait(".cell.target", what=f"drop targets of {mv}")
            d.click(f'.cell[data-sq="{m.group(2)}"]')
            drops += 1
        else:
            m = re.fullmatch(r"(\d+[a-z])(\d+[a-z])(\+?)", mv)
            assert m, f"not a USI move: {mv}"
            d.click(f'.cell[data-sq="{m.group(1)}"]')
            d.wait(".cell.target", what=f"targets of {mv}")
            d.click(f'.cell[data-sq="{m.group(2)}"]')
            dialog = d.script("return !document.getElementById('promotion').hidden")
            if dialog:
                if m.group(3):
                    if promotions == 0:
                        d.screenshot(os.path.join(shots, "promotion-choice.png"))
                    d.click("#promote-yes")
                    promotions += 1
                else:
                    d.click("#promote-no")
            else:
                assert not m.group(3), f"{mv}: no promotion choice was offered"
        wait_until(lambda: d.script("return document.querySelectorAll('#moves li').length") == i + 1,
                   f"move {i + 1} ({mv}) in the move list")
        shown = d.script("return document.querySelectorAll('#moves li .usi')[arguments[0]].textContent", i)
        assert shown == mv, f"move {i + 1}: the list shows {shown}, expected {mv}"
        ja = d.script("return document.querySelectorAll('#moves li .ja')[arguments[0]].textContent", i)
        assert re.fullmatch("[▲△☗☖].+", ja), f"move {i + 1}: Japanese notation {ja!r}"
        err = d.script("return document.getElementById('error').textContent")
        assert not err, f"move {i + 1} ({mv}): {err}"
    assert drops > 0 and promotions > 0, f"the game needs a drop and a promotion ({drops}, {promotions})"
    result = wait_until(lambda: d.script(
        "const r = document.getElementById('result'); return r.hidden ? '' : r.textContent"),
        "the result")
    assert "checkmate" in result, f"result shown: {result!r}"
    last = moves[-1][-2:] if "*" in moves[-1] else re.sub(r"\+$", "", moves[-1])[-2:]
    assert d.find(f'.cell.last[data-sq="{last}"]'), "the last move is marked"
    assert d.find(".cell.check"), "the mated king is marked"
    d.screenshot(os.path.join(shots, "checkmate.png"))
    print(f"browser: {variant} played to '{result}' by clicking ({len(moves)} moves, "
          f"{drops} drops, {promotions} promotions)")


def versus_engine(d, variant, moves):
    """A move against the engine: it answers, with its search shown; flip
    turns the board; undo takes back both moves."""
    d.click("#tab-play")
    select(d, "variant", variant)
    select(d, "mode", "engine-gote")
    d.script("document.getElementById('think-time').value = '300'")
    new_game(d, "the new game")
    wait_until(lambda: d.find(f'.cell[data-sq="{moves[0][:2]}"]'), "the new game's board")
    d.click(f'.cell[data-sq="{moves[0][:2]}"]')
    d.click(f'.cell[data-sq="{moves[0][2:4]}"]')
    wait_until(lambda: d.script("return document.querySelectorAll('#moves li').length") == 2,
               "the engine's answer")
    info = d.text("#info")
    assert re.search(r"depth \d+", info) and "best:" in info, f"engine info: {info!r}"
    corner = lambda: d.script(
        "const c = [...document.querySelectorAll('.cell')]"
        ".find(c => c.style.gridRow === '2' && c.style.gridColumn === '1'); return c.dataset.sq")
    before = corner()
    d.click("#flip")
    after = corner()
    assert before != after, f"flip left {before} in the corner"
    d.click("#flip")
    d.click("#undo")
    wait_until(lambda: d.script("return document.querySelectorAll('#moves li').length") == 0,
               "both moves taken back")
    print(f"browser: the engine answered ({info.splitlines()[-1]}); flip put {after} where {before} was; undo")


def edit_variant(d, variant, shots):
    d.click("#tab-editor")
    select(d, "editor-base", variant)
    d.click("#editor-load")
    wait_until(lambda: f"slug: {variant}" in d.script("return document.getElementById('editor-text').value"),
               "the variant's text in the editor")
    d.wait("#diagnostics li.ok", what="the variant checked ok")
    d.wait("#diagram img", what="the start diagram")
    text = d.script("return document.getElementById('editor-text').value")
    lines = text.split("\n")
    n = next(i for i, l in enumerate(lines) if l.strip().startswith("rows:"))
    indent = len(lines[n]) - len(lines[n].lstrip())
    lines[n] = " " * indent + "rows: 99"
    d.script("const t = document.getElementById('editor-text'); t.value = arguments[0];"
             "t.dispatchEvent(new Event('input'));", "\n".join(lines))
    el = d.wait("#diagnostics li.diagnostic", what="the located message")
    shown = d.call("GET", d.s(f"/element/{el}/text"))
    want = f"line {n + 1}, column {indent + 7}"
    assert shown.startswith(want), f"diagnostic {shown!r} does not start with {want!r}"
    assert "99" in shown, shown
    d.screenshot(os.path.join(shots, "editor-diagnostic.png"))
    print(f"browser: the broken variant shows '{shown.splitlines()[0]}'")
    # Mend it: the pieces, a movement diagram, perft.
    d.script("const t = document.getElementById('editor-text'); t.value = arguments[0];"
             "t.dispatchEvent(new Event('input'));", text)
    d.wait("#diagnostics li.ok", what="the mended variant checked ok")
    d.click("#pieces button")
    d.wait("#movement img", what="a movement diagram")
    d.script("document.getElementById('perft-depth').value = '2'")
    d.click("#perft")
    perft = wait_until(lambda: re.match(r"1: \d+\s+2: \d+", d.text("#perft-result")) and d.text("#perft-result"),
                       "perft counts")
    d.screenshot(os.path.join(shots, "editor.png"))
    print(f"browser: editor movement diagram drawn, perft {perft}")
    # A variant file from disk into the editor, then played.
    other = os.path.join(ROOT, "variants/minishogi.md")
    el = d.wait("#editor-file")
    d.call("POST", d.s(f"/element/{el}/value"), {"text": other})
    wait_until(lambda: "slug: minishogi" in d.script("return document.getElementById('editor-text').value"),
               "the opened file in the editor")
    d.wait("#diagnostics li.ok", what="the opened file checked ok")
    d.click("#editor-play")
    wait_until(lambda: d.script("return document.getElementById('play').classList.contains('active')")
               and d.script("return document.getElementById('variant').value") == "(editor)"
               and d.script("return document.getElementById('title').textContent") == "Minishogi"
               and len(d.find(".cell")) == 25, "the opened file's variant in play")
    print("browser: a variant file opened in the editor; 'Play this' started a game of it")


def from_sfen(d, variant, moves):
    """A new game from an SFEN typed in: the position shown is that one."""
    d.click("#tab-play")
    select(d, "variant", variant)
    select(d, "mode", "people")
    new_game(d)
    for mv in moves[:2]:
        d.click(f'.cell[data-sq="{mv[:2]}"]')
        d.click(f'.cell[data-sq="{mv[2:4]}"]')
    wait_until(lambda: d.script("return document.querySelectorAll('#moves li').length") == 2, "two moves")
    sfen = d.script("return document.getElementById('sfen').value")
    new_game(d)
    assert d.script("return document.getElementById('sfen').value") != sfen
    el = d.wait("#setup")
    d.call("POST", d.s(f"/element/{el}/value"), {"text": sfen})
    new_game(d, f"a new game from {sfen}")
    wait_until(lambda: d.script("return document.getElementById('sfen').value") == sfen,
               f"the position of {sfen}")
    d.script("document.getElementById('setup').value = ''")
    print(f"browser: a new game from the SFEN {sfen}")


def drag(d, from_css, to_css):
    """Presses the mouse on one element, moves it to another, releases (at
    the centres the elements have before: the page redraws on the press)."""
    def centre(css):
        d.wait(css)
        r = d.script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                     "return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]", css)
        return {"origin": "viewport", "x": r[0], "y": r[1]}
    a, b = centre(from_css), centre(to_css)
    d.call("POST", d.s("/actions"), {"actions": [{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "duration": 0, **a},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerMove", "duration": 150, **b},
            {"type": "pointerUp", "button": 0},
        ]}]})
    d.call("DELETE", d.s("/actions"))


def moves_shown(d):
    return d.script("return [...document.querySelectorAll('#moves li .usi')].map(e => e.textContent)")


def records_and_steps(d, variant, moves, shots):
    """A move by dragging, stepping back through the game (the board shown
    is the earlier one and takes no move), the game downloaded as KIF and
    opened again from the file, and a broken record's message."""
    d.click("#tab-play")
    select(d, "variant", variant)
    select(d, "mode", "people")
    new_game(d)
    start_sfen = d.script("return document.getElementById('sfen').value")
    first, second = moves[0], moves[1]
    drag(d, f'.cell[data-sq="{first[:2]}"]', f'.cell[data-sq="{first[2:4]}"]')
    wait_until(lambda: moves_shown(d) == [first], f"{first} played by dragging")
    assert not d.find(".ghost"), "the dragged piece's image is gone"
    d.click(f'.cell[data-sq="{second[:2]}"]')
    d.click(f'.cell[data-sq="{second[2:4]}"]')
    wait_until(lambda: moves_shown(d) == [first, second], f"{second} played by clicking")
    now_sfen = d.script("return document.getElementById('sfen').value")
    d.click("#step-first")
    wait_until(lambda: d.text("#viewing") == "looking at move 0 of 2", "the start shown")
    # The field follows the board shown (it may be written just after the label).
    wait_until(lambda: d.script("return document.getElementById('sfen').value") == start_sfen,
               "the start's SFEN shown")
    # While looking back the board takes no move.
    d.click(f'.cell[data-sq="{first[:2]}"]')
    assert not d.find(".cell.target"), "a piece was selected while looking back"
    d.click("#step-forward")
    wait_until(lambda: d.text("#viewing") == "looking at move 1 of 2", "move 1 shown")
    assert d.find(f'.cell.last[data-sq="{first[2:4]}"]'), "move 1 marked as the last move"
    assert d.find("#moves li.current:first-child"), "move 1 marked in the list"
    d.screenshot(os.path.join(shots, "stepping.png"))
    d.click("#step-last")
    wait_until(lambda: d.text("#viewing") == "", "the game as it stands")
    wait_until(lambda: d.script("return document.getElementById('sfen').value") == now_sfen,
               "the SFEN of the game as it stands")
    # The record, as the link gives it, and opened again from its file.
    select(d, "record-format", "kif")
    href = d.script("return document.getElementById('download').href")
    with urllib.request.urlopen(href, timeout=10) as r:
        kif = r.read().decode("utf-8")
        disposition = r.headers.get("Content-Disposition", "")
    assert "手合割" in kif or "変化" in kif or "手数" in kif, f"not a KIF record: {kif[:200]!r}"
    assert f"{variant}.kifu" in disposition, disposition
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.kifu")
        with open(path, "w", encoding="utf-8") as f:
            f.write(kif)
        new_game(d)
        el = d.wait("#open-record")
        d.call("POST", d.s(f"/element/{el}/value"), {"text": path})
        wait_until(lambda: moves_shown(d) == [first, second], "the record's moves")
        assert d.script("return document.getElementById('sfen').value") == now_sfen
        assert "2 moves" in d.text("#headers"), d.text("#headers")
        bad = os.path.join(tmp, "broken.txt")
        with open(bad, "w") as f:
            f.write(f"variant: {variant}\n{first} {first}\n")
        d.call("POST", d.s(f"/element/{el}/value"), {"text": bad})
        err = wait_until(lambda: d.text("#error"), "the broken record's message")
        assert "broken.txt" in err and "record:2:" in err, f"message: {err!r}"
    assert moves_shown(d) == [first, second], "a broken record left the game as it was"
    print(f"browser: {first} dragged, stepped back and forth, KIF downloaded and opened again; "
          f"broken record: {err}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=os.path.join(ROOT, "target/debug/koma"))
    ap.add_argument("--shots", default=os.path.join(ROOT, "target/browser-shots"))
    args = ap.parse_args()
    os.makedirs(args.shots, exist_ok=True)
    games = [l.split("\t") for l in open(os.path.join(ROOT, "tests/server/games.txt"))
             if l.strip() and not l.startswith("#")]
    variant, moves = games[0][0], games[0][1].split()

    server = subprocess.Popen([args.koma, "serve", "--addr", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, text=True)
    driver_port = free_port()
    chromedriver = subprocess.Popen(["chromedriver", f"--port={driver_port}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = None
    passed = failed = 0
    try:
        line = server.stdout.readline()
        url = re.search(r"http://\S+", line)
        assert url, f"koma serve printed no URL: {line!r}"
        url = url.group(0)
        wait_until(lambda: _up(f"http://127.0.0.1:{driver_port}/status"), "chromedriver")
        with tempfile.TemporaryDirectory() as profile:
            d = Driver(driver_port, profile)
            d.get(url)
            d.wait(f'#variant option[value="{variant}"]', what="the variant list")
            for step in (lambda: opens_on_the_default(d, url),
                         lambda: play_game(d, variant, moves, args.shots),
                         lambda: versus_engine(d, variant, moves),
                         lambda: from_sfen(d, variant, moves),
                         lambda: records_and_steps(d, variant, moves, args.shots),
                         lambda: edit_variant(d, variant, args.shots)):
                try:
                    step()
                    passed += 1
                except Exception as e:  # report, screenshot, go on
                    failed += 1
                    print(f"browser: FAILED: {e}", flush=True)
                    try:
                        d.screenshot(os.path.join(args.shots, f"failure-{failed}.png"))
                    except Exception:
                        pass
            d.quit()
    except Exception as e:
        failed += 1
        print(f"browser: FAILED: {e}", flush=True)
    finally:
        chromedriver.terminate()
        server.terminate()
        chromedriver.wait(10)
        server.wait(10)
    print(f"browser: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def _up(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return json.load(r)["value"].get("ready")
    except Exception:
        return False


if __name__ == "__main__":
    sys.exit(main())
