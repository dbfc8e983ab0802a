// The toolgate ui page: plain JavaScript, no build step. Everything shown comes from the decisions log,
// which anyone could have written, so text goes in through textContent only, never as HTML.

const maxRows = 500;
const svgNs = "http://www.w3.org/2000/svg";
const verdicts = ["allow", "ask", "block"];
const bucketSizes = [1, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 86400].map((seconds) => seconds * 1000);

const state = { records: [], selected: undefined, source: undefined };
const $ = (id) => document.getElementById(id);

// As @toolgate/host's escapeControl: controls, line separators and bidi overrides written out as escapes,
// so a record can neither break a line nor make "txt.exe" read as "exe.txt".
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacters = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const named = { "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f", "\v": "\\v" };

function escapeControl(text) {
  return text.replace(controlCharacters, (character) => {
    const code = character.charCodeAt(0);
    return named[character] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
  });
}

/** Text whose lines are kept (a `pre`'s), each escaped. */
function escapeLines(text) {
  return text.split("\n").map(escapeControl).join("\n");
}

/** An element holding `text` as text (never markup), control characters escaped; only a `pre` keeps its lines. */
function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = tag === "pre" ? escapeLines(String(text)) : escapeControl(String(text));
  if (className !== undefined) node.className = className;
  return node;
}

function streamUrl() {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData($("filters"))) if (String(value).trim() !== "") query.set(name, String(value).trim());
  return `/api/stream?${query}`;
}

function connect() {
  state.source?.close();
  const url = streamUrl();
  const source = new EventSource(url);
  state.source = source;
  setStatus("connecting", "connecting…");
  source.addEventListener("open", () => setStatus("live", "live"));
  source.addEventListener("backlog", (event) => {
    $("filter-error").textContent = "";
    state.records = JSON.parse(event.data);
    render();
  });
  source.addEventListener("records", (event) => {
    state.records.push(...JSON.parse(event.data));
    render();
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) void explainRefusal(url);
    else setStatus("connecting", "reconnecting…");
  });
}

/** The stream was refused (a filter that means nothing): the same URL answers with the reason as JSON. */
async function explainRefusal(url) {
  setStatus("error", "disconnected");
  try {
    const response = await fetch(url);
    if (!response.ok) $("filter-error").textContent = (await response.json()).error;
  } catch {
    // the server is gone; the status says so
  }
}

function setStatus(stateName, text) {
  $("status").dataset.state = stateName;
  $("status").textContent = text;
}

function render() {
  renderRows();
  renderChart();
  renderTopDenying();
  $("empty").hidden = state.records.length > 0;
}

function messageOf(record) {
  const { source } = record;
  // A shadow participant took no part in the verdict: its message is never the record's.
  const enforced = record.participants.filter((entry) => entry.shadow !== true);
  const decider = source && enforced.find((entry) => entry.kind === source.kind && entry.name === source.name);
  return decider?.message ?? enforced.find((entry) => entry.action === record.verdict && entry.message)?.message ?? "";
}

/** What a shadow participant's answer would have made of the verdict (the SDK's `shadowVerdict`, which this page cannot import). */
function shadowVerdictOf(verdict, action) {
  if (action === "block" || action === "error" || action === "timeout") return "block";
  if (action === "ask" && verdict !== "block") return "ask";
  return verdict;
}

const pastTense = { block: "blocked", ask: "asked", allow: "allowed" };

/** A shadow participant's answer cell: what it would have done where that differs from the verdict, else its answer. */
function shadowAnswer(record, participant) {
  const wouldBe = shadowVerdictOf(record.verdict, participant.action);
  return wouldBe === record.verdict ? `${participant.action} (shadow)` : `would have ${pastTense[wouldBe]} (shadow)`;
}

function renderRows() {
  const body = $("records");
  const rows = state.records
    .slice(-maxRows)
    .reverse()
    .map(({ id, record }) => {
      const row = document.createElement("tr");
      row.dataset.id = String(id);
      row.dataset.verdict = record.verdict;
      row.tabIndex = 0;
      row.setAttribute("aria-selected", String(id === state.selected));
      row.append(
        element("td", new Date(record.time).toLocaleString(), "time"),
        element("td", record.surface, "surface"),
        element("td", record.verdict, `verdict-${record.verdict}`),
        element("td", record.tool, "tool"),
        element("td", typeof record.summary === "string" ? record.summary : "", "summary"),
        element("td", record.source ? `${record.source.kind} ${record.source.name}` : "-"),
        element("td", messageOf(record), "message"),
      );
      row.addEventListener("click", () => showDetail(id));
      return row;
    });
  // New records come in at the top: the rows in view stay where they are, and so does the focus.
  const list = $("records-scroll");
  const before = list.scrollHeight - list.scrollTop;
  const focused = document.activeElement?.closest?.("#records tr")?.dataset.id;
  body.replaceChildren(...rows);
  if (list.scrollTop > 0) list.scrollTop = list.scrollHeight - before;
  if (focused !== undefined) body.querySelector(`tr[data-id="${focused}"]`)?.focus({ preventScroll: true });
}

/** Marks the selected row without building the list again, so that opening a call never moves it. */
function markSelected() {
  for (const row of $("records").children) row.setAttribute("aria-selected", String(row.dataset.id === String(state.selected)));
}

/** Enter or space opens the focused row; the arrow keys move between rows. */
function onRowKey(event) {
  const row = event.target.closest?.("#records tr");
  if (!row) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    showDetail(Number(row.dataset.id));
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    (event.key === "ArrowDown" ? row.nextElementSibling : row.previousElementSibling)?.focus();
  }
}

function bucketSizeFor(span) {
  return bucketSizes.find((size) => span / size <= 60) ?? bucketSizes[bucketSizes.length - 1];
}

function describeBucket(size) {
  if (size >= 3600_000) return `${size / 3600_000} h`;
  if (size >= 60_000) return `${size / 60_000} min`;
  return `${size / 1000} s`;
}

function renderChart() {
  const chart = $("chart");
  const times = state.records.map(({ record }) => Date.parse(record.time));
  if (times.length === 0) {
    chart.replaceChildren();
    $("bucket").textContent = "";
    return;
  }
  const first = Math.min(...times);
  const size = bucketSizeFor(Math.max(...times) - first);
  const start = Math.floor(first / size) * size;
  const buckets = new Map();
  state.records.forEach(({ record }, index) => {
    const key = Math.floor((times[index] - start) / size);
    const counts = buckets.get(key) ?? { allow: 0, ask: 0, block: 0 };
    counts[record.verdict] += 1;
    buckets.set(key, counts);
  });
  const count = Math.max(...buckets.keys()) + 1;
  const highest = Math.max(...[...buckets.values()].map((counts) => counts.allow + counts.ask + counts.block));
  const width = 600 / Math.max(count, 1);
  const bars = [];
  for (const [key, counts] of buckets) {
    let y = 140;
    for (const verdict of verdicts) {
      if (counts[verdict] === 0) continue;
      const height = (counts[verdict] / highest) * 130;
      y -= height;
      const bar = document.createElementNS(svgNs, "rect");
      bar.setAttribute("class", verdict);
      bar.setAttribute("x", String(key * width + width * 0.1));
      bar.setAttribute("width", String(width * 0.8));
      bar.setAttribute("y", String(y));
      bar.setAttribute("height", String(height));
      const title = document.createElementNS(svgNs, "title");
      title.textContent = `${new Date(start + key * size).toLocaleString()}: ${counts[verdict]} ${verdict}`;
      bar.append(title);
      bars.push(bar);
    }
  }
  chart.replaceChildren(...bars);
  const end = new Date(start + count * size).toLocaleString();
  $("bucket").textContent = `(${new Date(start).toLocaleString()} to ${end}, per ${describeBucket(size)}, highest ${highest})`;
}

function renderTopDenying() {
  const bySource = new Map();
  for (const { record } of state.records) {
    if (record.verdict === "allow" || !record.source) continue;
    const key = `${record.source.kind} ${record.source.name}`;
    const counts = bySource.get(key) ?? { block: 0, ask: 0 };
    counts[record.verdict] += 1;
    bySource.set(key, counts);
  }
  const top = [...bySource].sort(([, a], [, b]) => b.block - a.block || b.ask - a.ask).slice(0, 10);
  $("top-denying").replaceChildren(
    ...top.map(([name, counts]) => element("li", `${name}: ${counts.block} blocked${counts.ask > 0 ? `, ${counts.ask} asked` : ""}`)),
  );
  const totals = verdicts.map((verdict) => `${state.records.filter(({ record }) => record.verdict === verdict).length} ${verdict}`);
  $("totals").textContent = `${state.records.length} decisions: ${totals.join(", ")}`;
}

function showDetail(id) {
  const entry = state.records.find((candidate) => candidate.id === id);
  if (!entry) return;
  state.selected = id;
  const { record } = entry;
  $("detail").hidden = false;
  $("no-detail").hidden = true;
  $("detail-title").textContent = escapeControl(`${record.tool}: ${record.verdict}`);
  $("detail-title").className = `verdict-${record.verdict}`;
  const fields = [
    ["time", record.time],
    ["surface", record.surface],
    ["session", record.session],
    ["call id", record.callId],
    ["kind", record.kind],
    ["what it ran", typeof record.summary === "string" ? record.summary : undefined],
    ["verdict", record.verdict],
    ["outcome", record.outcome],
    ["decided by", record.source ? `${record.source.kind} ${record.source.name}` : "nobody objected"],
    ["decision took", record.ms === undefined ? undefined : `${record.ms} ms`],
    ["policy", record.policy],
    ["arguments digest", record.argsDigest],
  ];
  $("detail-fields").replaceChildren(
    ...fields.filter(([, value]) => value !== undefined).flatMap(([name, value]) => [element("dt", name), element("dd", value)]),
  );
  $("participants").replaceChildren(
    ...record.participants.map((participant) => {
      const row = document.createElement("tr");
      const shadow = participant.shadow === true;
      if (shadow) {
        row.className = "shadow";
        row.title = "shadow mode: asked and recorded, took no part in the verdict";
      }
      row.append(
        element("td", participant.kind),
        element("td", participant.name),
        element("td", shadow ? shadowAnswer(record, participant) : participant.action, `verdict-${participant.action}`),
        element("td", participant.message ?? ""),
        element("td", participant.ms ?? ""),
      );
      return row;
    }),
  );
  markSelected();
  if (record.args === undefined) {
    $("detail-args").textContent = escapeControl(`only a digest was recorded: ${record.argsDigest ?? "none"}`);
    $("explain").replaceChildren(
      element(
        "p",
        'The arguments were recorded as a digest only, so this call cannot be explained here. Set decisions: { args: "full" } in the config to record them in full.',
        "dim",
      ),
    );
    return;
  }
  $("detail-args").textContent = escapeLines(JSON.stringify(record.args, null, 2));
  void explain(record, id);
}

async function explain(record, id) {
  const target = $("explain");
  target.replaceChildren(element("p", "explaining…", "dim"));
  let answer;
  try {
    const response = await fetch("/api/explain", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool: record.tool, kind: record.kind, callId: record.callId, args: record.args, session: record.session }),
    });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
  } catch (error) {
    if (state.selected === id) target.replaceChildren(element("p", `cannot explain: ${error.message}`, "error"));
    return;
  }
  if (state.selected !== id) return;
  target.replaceChildren(...explanationNodes(answer));
}

function explanationNodes({ explanation, failedPlugins }) {
  const list = element("ul", undefined, "explanation");
  if (explanation.plugins.length === 0) list.append(element("li", "no plugins loaded", "dim"));
  for (const plugin of explanation.plugins) {
    const item = element("li");
    item.append(
      element("strong", plugin.outcome, `verdict-${plugin.outcome}`),
      document.createTextNode(` ${plugin.plugin}${plugin.shadow ? " (shadow, not enforced)" : ""}${plugin.message ? `: ${plugin.message}` : ""}`),
    );
    if (plugin.details !== undefined) item.append(element("pre", JSON.stringify(plugin.details, null, 2)));
    list.append(item);
  }
  for (const failed of failedPlugins) list.append(element("li", `failed ${failed.plugin}: ${failed.error}`, "error"));
  const { verdict } = explanation;
  const summary = element(
    "p",
    `verdict now: ${verdict.action}${verdict.plugin ? ` by ${verdict.plugin}` : ""}${verdict.message ? `: ${verdict.message}` : ""}`,
  );
  summary.id = "explain-verdict";
  return [list, summary];
}

/** The diff panel: the log's calls decided under two policies (git refs), old and new verdict side by side. */
async function compare() {
  const form = new FormData($("diff-form"));
  const body = { base: String(form.get("base")).trim(), head: String(form.get("head")).trim() };
  $("diff-status").textContent = "deciding every recorded call under both policies…";
  $("diff-table").hidden = true;
  let report;
  try {
    const response = await fetch("/api/diff", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    report = await response.json();
    if (!response.ok) throw new Error(report.error);
  } catch (error) {
    $("diff-status").replaceChildren(element("span", `cannot compare: ${error.message}`, "error"));
    return;
  }
  $("diff-status").textContent = `${report.changed} of ${report.compared} calls change from ${report.base} to ${report.head}${
    report.notReplayed.length > 0 ? ` (${report.notReplayed.length} records not replayable)` : ""
  }`;
  $("diff-rows").replaceChildren(...report.groups.flatMap((group) => group.calls.map(diffRow)));
  $("diff-table").hidden = report.changed === 0;
}

function diffRow(change) {
  const row = document.createElement("tr");
  row.append(
    element("td", change.where, "time"),
    element("td", change.call.name, "tool"),
    element("td", JSON.stringify(change.call.args).slice(0, 200), "summary"),
    decisionCell(change.base),
    decisionCell(change.head),
  );
  return row;
}

function decisionCell(decision) {
  const cell = element("td", undefined, "message");
  const by = decision.source ? ` by ${decision.source.kind} ${decision.source.name}` : "";
  cell.append(element("span", decision.verdict, `verdict-${decision.verdict === "modify" ? "allow" : decision.verdict}`), element("span", by, "dim"));
  if (decision.message) cell.append(element("div", decision.message));
  return cell;
}

function debounce(action, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(action, ms);
  };
}

/** The filters live in the page's address, so that a filtered view can be reloaded, bookmarked and shared. */
function filtersToAddress() {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData($("filters"))) if (String(value).trim() !== "") query.set(name, String(value).trim());
  const search = query.toString();
  history.replaceState(null, "", search === "" ? location.pathname : `${location.pathname}?${search}`);
}

function filtersFromAddress() {
  const query = new URLSearchParams(location.search);
  for (const field of $("filters").elements) if (field.name && query.has(field.name)) field.value = query.get(field.name);
}

filtersFromAddress();
$("filters").addEventListener(
  "input",
  debounce(() => {
    filtersToAddress();
    connect();
  }, 300),
);
$("filters").addEventListener("submit", (event) => event.preventDefault());
$("diff-form").addEventListener("submit", (event) => {
  event.preventDefault();
  compare();
});
$("records").addEventListener("keydown", onRowKey);
$("close-detail").addEventListener("click", () => {
  state.selected = undefined;
  $("detail").hidden = true;
  $("no-detail").hidden = false;
  markSelected();
});
connect();
