import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Router, type Request, type RequestHandler } from "express";
import { projectRoot } from "../project-root.js";
import { EXACT_PATHS } from "../contract.js";

const ASSETS_PATH = "/explorer/assets";

const packageDir = (name: string) => dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));

/**
 * Everything the page loads, from the project's own installed packages: nothing from a CDN, so
 * the explorer works behind a firewall. GraphiQL 3 is the last major with a prebuilt browser
 * build (4 and later are ES modules on Monaco that need a bundler); it runs on React 18's UMD
 * builds. Only these files are served.
 */
const ASSETS: Record<string, string> = {
  "react.production.min.js": join(packageDir("react"), "umd/react.production.min.js"),
  "react-dom.production.min.js": join(packageDir("react-dom"), "umd/react-dom.production.min.js"),
  "graphiql.min.js": join(packageDir("graphiql"), "graphiql.min.js"),
  "graphiql.min.css": join(packageDir("graphiql"), "graphiql.min.css"),
  "explorer.js": join(projectRoot, "src/explorer/browser/explorer.js"),
  "graph.js": join(projectRoot, "src/explorer/browser/graph.js"),
  "explorer.css": join(projectRoot, "src/explorer/browser/explorer.css"),
};

const asset = (name: string) => `${ASSETS_PATH}/${name}`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>kg-graphql explorer</title>
    <link rel="stylesheet" href="${asset("graphiql.min.css")}" />
    <link rel="stylesheet" href="${asset("explorer.css")}" />
  </head>
  <body>
    <header class="kg-bar">
      <strong>kg-graphql</strong>
      <form id="key-form" autocomplete="off">
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" spellcheck="false" placeholder="kgq_…" />
        <button type="submit">Use key</button>
      </form>
      <span id="key-status" role="status"></span>
    </header>
    <main class="kg-main">
      <div id="graphiql"></div>
      <aside id="kg-graph" aria-label="Neighborhood drawing" hidden></aside>
    </main>
    <script src="${asset("react.production.min.js")}"></script>
    <script src="${asset("react-dom.production.min.js")}"></script>
    <script src="${asset("graphiql.min.js")}"></script>
    <script src="${asset("graph.js")}"></script>
    <script src="${asset("explorer.js")}"></script>
  </body>
</html>
`;

/**
 * The page's scripts and styles are all the project's own files; GraphiQL sets inline styles
 * (pane sizes) and its stylesheet embeds fonts and icons as data URIs.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** A browser navigating to the endpoint asks for HTML first; API clients ask for JSON or anything. */
const wantsPage = (req: Request) => req.accepts(["application/json", "text/html"]) === "text/html";

const passOn: RequestHandler = (_req, _res, next) => {
  next();
};

/**
 * The explorer: a browser `GET` on an endpoint path that asks for `text/html` gets GraphiQL, which
 * sends its queries to that same path with the API key typed into the page. Every other `GET`
 * falls through to the contract's 405. No key is needed to load the page; nothing but the
 * static page and its assets is served without one.
 */
export function explorerRoutes(graphqlPaths: string[]): Router {
  const router = Router(EXACT_PATHS);
  const page: RequestHandler = (req, res, next) => {
    // The answer (page or 405) depends on Accept: caches must not hand one to the other.
    res.vary("Accept");
    // Express routes HEAD to GET handlers; contract §2 answers HEAD with the 405.
    if (req.method !== "GET" || !wantsPage(req)) {
      next();
      return;
    }
    res
      .set({
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": PAGE_POLICY,
        "Cache-Control": "no-cache",
      })
      .send(PAGE);
  };
  // `.all(…)` makes the route handle every method, so the router does not answer OPTIONS itself
  // (Express's automatic `200 GET, HEAD`): everything but the page goes on to the contract's 405.
  router.route(graphqlPaths).get(page).all(passOn);
  // The same for the assets: OPTIONS, like any other path, goes on to the contract's 404. Each is
  // its own path, not a parameter: a name Express cannot decode (`%`) would be a 500.
  for (const [name, file] of Object.entries(ASSETS)) {
    router
      .route(asset(name))
      .get((_req, res, next) => {
        res.sendFile(file, { maxAge: "1h" }, (error?: Error) => {
          if (error !== undefined) next(error);
        });
      })
      .all(passOn);
  }
  return router;
}
