// Plays a whole solo game of `confluence-sim play` in a real Chromium, clicking only the
// options the page offers, and saves a screenshot. Run by tests/play_browser.rs:
//   node play.mjs URL SCREENSHOT.png
// Prints one JSON line at the end: {"result": ..., "clicks": N, "game_index": I}.
import { chromium } from "playwright-core";

const [url, shot] = process.argv.slice(2);
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector("body[data-state]");
  let clicks = 0;
  let x = 12345;
  let shotTaken = false;
  while ((await page.getAttribute("body", "data-state")) === "playing") {
    const options = page.locator("#decision button.option");
    const n = await options.count();
    if (n === 0) { await page.waitForTimeout(50); continue; }
    const title = await page.textContent("#decision h2");
    const texts = await options.allTextContents();
    // The screenshot: the first Afternoon turn of day 2 or later with cards to play, with
    // the advisor's estimates on screen.
    const status = await page.textContent("#status");
    const plays = texts.map((t, i) => [t, i]).filter(([t]) => t.startsWith("play ")).map(([, i]) => i);
    if (!shotTaken && /Day [2-9].*afternoon/.test(status) && plays.length >= 3) {
      await page.click("#advise");
      await page.waitForSelector("#decision .estimate", { timeout: 60000 });
      await page.hover("#me .card.choosable");
      await page.screenshot({ path: shot, fullPage: false });
      shotTaken = true;
    }
    x = (x * 1103515245 + 12345) % 2147483648;
    // A plausible player: mostly a play when there is one, else any offered option.
    const k = plays.length && x % 5 !== 0 ? plays[x % plays.length] : x % n;
    await options.nth(k).click();
    clicks++;
    // The page shows the next decision (another title) or the end.
    await page.waitForFunction(
      (t) => document.body.dataset.state !== "playing" ||
        (document.querySelector("#decision h2") || {}).textContent !== t,
      title, { timeout: 30000 });
    if (clicks > 3000) throw new Error("the game never ended");
  }
  const state = await page.getAttribute("body", "data-state");
  if (state !== "over") throw new Error("the game ended as " + state);
  // The simulated players on the same deal, all four.
  await page.waitForFunction(() => game.others && game.others.done, null, { timeout: 120000 });
  await page.waitForFunction(() => document.querySelectorAll("#result tr[data-policy]").length === 4);
  if (!shotTaken) await page.screenshot({ path: shot, fullPage: false });
  if (process.env.END_SHOT) await page.screenshot({ path: process.env.END_SHOT, fullPage: false });
  const result = await page.evaluate(() => game.result);
  const index = await page.evaluate(() => game.game_index);
  if (errors.length) throw new Error("page errors: " + errors.join("; "));
  console.log(JSON.stringify({ result, clicks, game_index: index }));
} finally {
  await browser.close();
}
