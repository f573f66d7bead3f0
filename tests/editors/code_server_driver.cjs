/*
 * A VS Code user with the pipelint extension, in code-server, driven by
 * tests/editors/test_code_server.py: open the workspace in a headless
 * Chromium (puppeteer-core), open each file from the Explorer as a user
 * clicks it, and wait until the Problems panel lists a pipelint diagnostic
 * for it.  Prints one JSON report on stdout: per file, whether its diagnostic
 * appeared, and the Problems panel's text.
 *
 *   node code_server_driver.cjs URL CHROMIUM FILE...    (NODE_PATH: where puppeteer-core is)
 *
 * FILE is a path relative to the workspace; its folders are expanded in the
 * Explorer (the test turns compact folders off).  The waits are on the page's
 * state, with an upper bound for a loaded machine.
 */
const puppeteer = require("puppeteer-core");

const TIMEOUT_MS = 180000;

/** The Explorer's rows, as [label, first line of text]: for the report when a row is not found. */
function explorerRows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".explorer-folders-view .monaco-list-row")].map((row) => [
      row.getAttribute("aria-label"),
      row.innerText.trim().split("\n")[0],
    ]),
  );
}

/** The Explorer row of a file or folder, by its name (decorations such as a problem count aside). */
function findRow(wanted) {
  return [...document.querySelectorAll(".explorer-folders-view .monaco-list-row")].find(
    (row) => row.innerText.trim().split("\n")[0] === wanted,
  );
}

async function clickRow(page, label, timeout = TIMEOUT_MS) {
  const found = await page.waitForFunction(findRow, { timeout }, label).catch(async (error) => {
    throw new Error(`no Explorer row ${label}: rows ${JSON.stringify(await explorerRows(page))} (${error})`);
  });
  await found.asElement().click();
}

/**
 * Expand a folder until its child's row shows.  The Explorer loads a folder's
 * children after the click, and a click that lands while the list re-renders
 * may select a row without expanding it: click again while it says it is
 * collapsed.
 */
async function expand(page, folder, child) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    const expanded = await page.evaluate((name) => {
      const row = [...document.querySelectorAll(".explorer-folders-view .monaco-list-row")].find(
        (candidate) => candidate.innerText.trim().split("\n")[0] === name,
      );
      return row ? row.getAttribute("aria-expanded") : null;
    }, folder);
    if (expanded !== "true") {
      await clickRow(page, folder);
    }
    const shown = await page.waitForFunction(findRow, { timeout: 15000 }, child).then(
      () => true,
      () => false,
    );
    if (shown) {
      return;
    }
  }
  throw new Error(`${folder} never showed ${child}: rows ${JSON.stringify(await explorerRows(page))}`);
}

async function main() {
  const [url, chromium, ...files] = process.argv.slice(2);
  const report = { files: {}, steps: [] };
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // Root in a container or CI job: Chromium's sandbox needs user namespaces it may not get.
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(url);
    await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: TIMEOUT_MS });
    report.steps.push("workbench");
    await page.keyboard.down("Control");
    await page.keyboard.down("Shift");
    await page.keyboard.press("KeyM"); // View: Problems
    await page.keyboard.up("Shift");
    await page.keyboard.up("Control");
    for (const file of files) {
      const parts = file.split("/");
      for (let depth = 1; depth < parts.length; depth++) {
        await expand(page, parts[depth - 1], parts[depth]);
      }
      await clickRow(page, parts[parts.length - 1]);
      const name = parts[parts.length - 1];
      // The Problems panel groups diagnostics under a row naming the file; its
      // text reads the file's row, "COUNT", the message, "pipelint" (the source), the code.
      const seen = await page
        .waitForFunction(
          (wanted, count) => {
            const text = document.querySelector(".markers-panel")?.innerText ?? "";
            const findings = text.match(/^pipelint\nPL\d{3}$/gm) ?? [];
            // A file's row reads its name, then its folder ("count.yml.github/workflows").
            return text.split("\n").some((line) => line.startsWith(wanted)) && findings.length >= count;
          },
          { timeout: TIMEOUT_MS },
          name,
          Object.keys(report.files).length + 1,
        )
        .then(
          () => true,
          () => false,
        );
      report.files[file] = seen;
      report.steps.push(file);
    }
    report.problems = await page.evaluate(() => document.querySelector(".markers-panel")?.innerText ?? "");
  } catch (error) {
    report.error = String(error && error.stack ? error.stack : error);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report) + "\n");
}

main();
