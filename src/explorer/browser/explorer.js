// The explorer page's own script (plain browser JavaScript, no build step): GraphiQL with a fetcher
// that sends the API key typed into the page as `Authorization: Bearer`, and draws a neighborhood
// the answer holds beside it (graph.js). The key stays in this tab's sessionStorage, so it
// survives a reload and is gone when the tab closes.
(() => {
  "use strict";

  const KEY_STORAGE = "kg-graphql.api-key";
  const DEFAULT_QUERY = `# Paste an API key above and press "Use key", then run a query with Ctrl-Enter.
# The docs (book icon) list every type and field; Ctrl-Space completes.
#
# Topics and their latest decisions, with who decided them:
{
  topics(limit: 5) {
    name
    decisions(limit: 5) {
      title
      status
      decidedAt
      decidedBy {
        name
      }
    }
  }
}
`;

  // The endpoint is the path this page was served on (/api/v1/graphql or /v1/graphql).
  const endpoint = window.location.pathname;
  const params = new URLSearchParams(window.location.search);
  const form = document.getElementById("key-form");
  const keyInput = document.getElementById("api-key");
  const keyStatus = document.getElementById("key-status");
  const graphPanel = document.getElementById("kg-graph");

  let apiKey = window.sessionStorage.getItem(KEY_STORAGE) ?? "";
  keyInput.value = apiKey;

  const fetcherWith = (key) => async (graphQLParams, options) => {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    Object.assign(headers, options?.headers);
    if (key !== "") headers.Authorization = `Bearer ${key}`;
    const response = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify(graphQLParams) });
    // Every answer, 200 or not, is a GraphQL response body with `data` or `errors` (contract §3).
    const answer = await response.json();
    // A neighborhood in the answer is drawn beside it (graph.js); the schema's introspection is not an answer.
    if (graphQLParams.operationName !== "IntrospectionQuery") window.kgGraph.show(graphPanel, answer);
    return answer;
  };

  // A shared link keeps the query and variables in the address: ?query=…&variables=….
  const remember = (name) => (value) => {
    const url = new URL(window.location.href);
    url.searchParams.set(name, value);
    window.history.replaceState(null, "", url);
  };

  const root = window.ReactDOM.createRoot(document.getElementById("graphiql"));
  const render = () => {
    keyStatus.textContent = apiKey === "" ? "No key: queries will get 401." : "Key in use for this tab.";
    root.render(
      window.React.createElement(window.GraphiQL, {
        // A new fetcher makes GraphiQL introspect again, so the docs appear once a key is set.
        fetcher: fetcherWith(apiKey),
        defaultQuery: DEFAULT_QUERY,
        query: params.get("query") ?? undefined,
        variables: params.get("variables") ?? undefined,
        onEditQuery: remember("query"),
        onEditVariables: remember("variables"),
        defaultEditorToolsVisibility: params.has("variables"),
      }),
    );
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    apiKey = keyInput.value.trim();
    if (apiKey === "") window.sessionStorage.removeItem(KEY_STORAGE);
    else window.sessionStorage.setItem(KEY_STORAGE, apiKey);
    render();
  });

  render();
})();
