"""Headless Chromium driven over the DevTools protocol, as a person uses a page: open it, wait for
text, click what carries a label, tick a row's checkbox, read the text (frames included), take a
screenshot.

No browser-automation package is needed: Chromium is started with ``--remote-debugging-port=0``,
its port is read from ``DevToolsActivePort`` and the protocol is spoken over aiohttp's websocket
client (aiohttp comes with litellm).  Every wait is bounded by a count of polls, never by the wall
clock alone, and the browser is ended with its process group.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import signal
import subprocess
from pathlib import Path

__all__ = ["CHROMIUM", "Page", "open_page"]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# The text of the page and of every same-origin frame in it (MLflow previews HTML artifacts in one).
_TEXT_JS = """(() => {
  const out = [document.body ? document.body.innerText : ""];
  for (const f of document.querySelectorAll('iframe')) {
    try { if (f.contentDocument && f.contentDocument.body) out.push(f.contentDocument.body.innerText); }
    catch (e) { out.push('[frame ' + (f.src || 'srcdoc') + ' not readable]'); }
  }
  return out.join('\\n');
})()"""

# Click the innermost visible element whose own text is ``label`` (a button, a link, a tree item).
_CLICK_JS = """((label, nth) => {
  const all = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (e.innerText || '').trim() === label;
  });
  const inner = all.filter(e => !all.some(o => o !== e && e.contains(o)));
  const el = inner[nth];
  if (!el) return false;
  el.scrollIntoView({block: 'center'});
  for (const t of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'])
    el.dispatchEvent(new MouseEvent(t, {bubbles: true, cancelable: true, view: window}));
  return true;
})"""

# Tick the checkbox of the table row that holds a link with text ``label``.
_TICK_JS = """((label) => {
  const link = [...document.querySelectorAll('a')].find(a => (a.innerText || '').trim() === label);
  if (!link) return false;
  let row = link;
  while (row && !row.querySelector('input[type=checkbox], [role=checkbox]')) row = row.parentElement;
  const box = row && row.querySelector('input[type=checkbox], [role=checkbox]');
  if (!box) return false;
  box.click();
  return true;
})"""


class Page:
    """One tab of a headless Chromium, spoken to over the DevTools protocol."""

    def __init__(self, ws, session):
        self._ws, self._session, self._next = ws, session, 0

    async def call(self, method: str, **params):
        """Send one protocol command and return its result."""
        self._next += 1
        ident = self._next
        await self._ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads((await self._ws.receive()).data)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    async def goto(self, url: str) -> None:
        """Open ``url`` (a hash route of the same app re-renders in place)."""
        await self.call("Page.navigate", url=url)

    async def text(self) -> str:
        """The visible text of the page and its readable frames."""
        return await self.evaluate(_TEXT_JS) or ""

    async def wait_for(self, *needles: str, polls: int = 240, every_s: float = 0.5) -> str:
        """Poll the text until every needle is in it; return the text.

        Raises
        ------
        AssertionError
            Naming the needles still missing and the end of the text, after ``polls`` polls.
        """
        text = ""
        for _ in range(polls):
            text = await self.text()
            if all(n in text for n in needles):
                return text
            await asyncio.sleep(every_s)
        missing = [n for n in needles if n not in text]
        raise AssertionError(f"not on the page: {missing}; page text ends: {text[-1500:]!r}")

    async def click(self, label: str, nth: int = 0, polls: int = 120) -> None:
        """Click the element labelled ``label`` once it is there."""
        for _ in range(polls):
            if await self.evaluate(f"{_CLICK_JS}({json.dumps(label)}, {nth})"):
                return
            await asyncio.sleep(0.5)
        raise AssertionError(f"nothing labelled {label!r} to click")

    async def tick_row(self, label: str, polls: int = 120) -> None:
        """Tick the checkbox of the runs-table row whose link reads ``label``."""
        for _ in range(polls):
            if await self.evaluate(f"{_TICK_JS}({json.dumps(label)})"):
                return
            await asyncio.sleep(0.5)
        raise AssertionError(f"no row with a checkbox and the link {label!r}")

    async def screenshot(self, path: Path) -> Path:
        """Write a PNG of the whole page (beyond the window) to ``path``."""
        metrics = await self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        data = await self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                               clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        Path(path).write_bytes(base64.b64decode(data["data"]))
        return Path(path)


async def open_page(profile: Path, body, *, width: int = 1600, height: int = 1000):
    """Start Chromium with a fresh ``profile``, run ``await body(page)`` on a blank tab, end Chromium.

    Returns what ``body`` returns.
    """
    import aiohttp

    if profile.exists():
        shutil.rmtree(profile)
    profile.mkdir(parents=True)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}",
           f"--window-size={width},{height}", "about:blank"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        port_file = profile / "DevToolsActivePort"
        for _ in range(600):
            if port_file.is_file() and port_file.read_text().strip():
                break
            if proc.poll() is not None:
                raise RuntimeError(f"chromium exited with code {proc.returncode}")
            await asyncio.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
                targets = await response.json()
            target = next(t for t in targets if t.get("type") == "page")
            async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = Page(ws, session)
                await page.call("Page.enable")
                await page.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                                deviceScaleFactor=1, mobile=False)
                return await body(page)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
