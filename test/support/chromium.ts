import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium, headless (`npm test` installs it; playwright-core never downloads a browser here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}
