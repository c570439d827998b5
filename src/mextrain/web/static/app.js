// The mextrain browser client: lobby, table, replay viewer and statistics.
// The server is the authority: this page only shows the view it is sent and asks for
// moves the server listed as legal.
import { render } from "./vendor/preact.mjs";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useCallback } from "./vendor/preact-hooks.mjs";
import { html } from "./html.js";
import { Tile as DrawnTile, laidOnto, parseTile } from "./tiles.js";
import { fill } from "./words.js";
import { closeCall } from "./hint.js";
import { percent } from "./percent.js";
import { revealTargets, showTrainEnds } from "./reveal.js";
import { SILENT, say } from "./said.js";
import * as store from "./store.js";
import { encode as qrEncode } from "./vendor/uqr.mjs";

// -- strings ----------------------------------------------------------------------------

let STRINGS = {};
let LANG = "en";
const LANGS = [["en", "English"], ["fr", "Français"], ["it", "Italiano"], ["fi", "Suomi"]];

function t(key, params = {}) {
  return fill(STRINGS[key] ?? key, params, LANG);
}

// A name set into text on its own, so that a right-to-left name ("سارة") does not carry
// the tile or the score after it along with it.
const iso = (name) => `\u2068${name}\u2069`;

// A count in its plural form: the catalogues have "<key>.one" and "<key>.other", chosen
// by the language's CLDR rule (French "0 domino", English "0 tiles").
function tn(key, count, params = {}) {
  return t(pluralKey(key, count), { ...params, count });
}

function pluralKey(key, count) {
  const form = new Intl.PluralRules(LANG).select(count) === "one" ? "one" : "other";
  return `${key}.${form}` in STRINGS ? `${key}.${form}` : `${key}.other`;
}

// The length of a text or a number too long to quote whole ("5 000 caractères"), its
// thousands set apart as the language sets them, as mextrain.i18n's count_words says it.
const countWords = (unit, count) => t(pluralKey(`game.shortened.${unit}`, count),
  { count: new Intl.NumberFormat(LANG).format(count) });

// a share as the reader writes it: "45%", "45 %" (French and Finnish space it), every
// percentage on the page (the hint's chances, the statistics' win rates) alike
const pct = (share) => percent(share, LANG);

const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// A catalogue text that begins a sentence: its own first letter a capital ("Open end 7"
// after "3 tiles on the train."), never a name's, which stays as its player wrote it.
function tcap(key, params = {}) {
  return fill(cap(STRINGS[key] ?? key), params, LANG);
}

// A tile in words, for a screen reader, which may read "5-9" as "5 minus 9": named on its
// own ("Tile 5 and 9") or within a sentence ("You drew tile 5 and 9.").
function tileLabel(tile) {
  const [a, b] = parseTile(tile);
  return t("web.tile_label", { a, b });
}
function tileSaid(tile) {
  const [a, b] = parseTile(tile);
  return t("web.tile_said", { a, b });
}

// A tile drawn, with its name in words for a screen reader (``label`` for another name).
const Tile = (props) => html`<${DrawnTile} label=${tileLabel(props.tile)} ...${props} />`;

// Words that show a tile as the table writes it ("Ana: 9-5 on the Mexican train") and
// say it in words to a screen reader ("Ana: tile 9 and 5 on ..."): each is only for one.
const shownSaid = (shown, said) => (shown === said ? shown
  : html`<span aria-hidden="true">${shown}</span><span class="sr-only">${said}</span>`);

// Sentences said one after the other to a screen reader, as a label puts them together
// (those not there, false or empty, left out).
const sentences = (...parts) => parts.filter(Boolean).join(". ");

// A table's time per move in words: "30 seconds", "2 minutes".
function clockWords(seconds) {
  return seconds % 60 === 0 ? tn("web.turn_time.minutes", seconds / 60) : tn("web.turn_time.seconds", seconds);
}
// The times per move the lobby offers (0: no clock; the server allows others, from its
// --min-turn-time, 10 s unless set, to an hour), those the server allows.
const TURN_TIMES = [0, 30, 60, 120, 300];
// how quickly a table's bots move (the server's pause before a bot's move, at a pace)
const BOT_PACES = ["slow", "normal", "fast"];
// a table's bots' pace in words, where it is not the normal one
const paceWords = (table) => (table.bot_pace && table.bot_pace !== "normal" ? t(`web.table_bot_pace.${table.bot_pace}`) : "");
const turnTimes = (options) => TURN_TIMES.filter((s) => !s || s >= (options.min_turn_time ?? 0));

// The names the table shows: people as they called themselves, bots by seat in the
// reader's language ("Robot 2"; their level is on their train); records keep the
// server's English names ("Bot 2 (medium)").
function seatNames(seats) {
  return seats.map((s, i) => (s.kind === "bot" && s.bot ? t("web.bot_short", { number: i + 1 })
    : s.name || t("game.seat", { number: i + 1 })));
}

// A finished game's names as the reader says them: a bot's "Bot 2 (medium)" (the record's
// English) becomes "Robot 2 (moyen)"; people's names stay as they are.
function gameNames(players, bots) {
  return players.map((n, i) => (bots && bots[i]
    ? t("web.bot_name", { number: i + 1, level: t(`web.bot.${bots[i]}`) }) : n));
}

// The mark of a seat whose person left the game before its end, a bot finishing it for
// them (" (left before the end)"; "" for the others): ``left`` is the game's flags by seat.
const leftMark = (left, s) => ((left || [])[s] ? ` (${t("web.stats.left_mark")})` : "");

// A key that is the page's own shortcut: never with Ctrl, Alt or Cmd (Ctrl+P prints,
// Ctrl+D bookmarks), nor while typing in a field or using a slider or list.
function isShortcut(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  return !(e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName));
}

// The language chosen on the page, told to the server too (the page keeps it in this
// browser's storage, which the server never sees): a cookie of this site alone, for a
// year, that a page of the server's own (an address of no page) is shown in. One of ours
// only: the server reads no other. A browser that keeps no data for the site refuses the
// cookie too (it reads "" and writes nothing), and a document of no origin of its own (a
// sandboxed frame's) throws: the choice holds for the page's life all the same.
function keepLanguageChosen(code) {
  if (!LANGS.some(([c]) => c === code)) return;
  try {
    document.cookie = `mextrain_lang=${code}; Path=/; SameSite=Lax; Max-Age=31536000`;
  } catch { /* not told: the server's own pages are in the browser's language */ }
}

// The language in that cookie, if it is one of ours: a full storage keeps no new choice,
// the cookie may (and the page shows the language the server's pages are in).
function languageCookie() {
  try {
    const m = document.cookie.match(/(?:^|;\s*)mextrain_lang=([^;]*)/);
    return m && LANGS.some(([c]) => c === m[1]) ? m[1] : null;
  } catch { return null; }
}

// the language kept for the next page: the storage's, else its cookie's
const keptLanguage = () => store.get("mextrain.lang") || languageCookie();

function pickLanguage() {
  const saved = keptLanguage();
  if (saved) {
    keepLanguageChosen(saved);  // (a choice made before the cookie was set reaches it too)
    return saved;
  }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = l.toLowerCase().split(/[-_]/)[0];
    if (LANGS.some(([c]) => c === base)) return base;
  }
  return "en";
}

// A language's words, as the server sends them ({lang, strings}); throws where they could
// not be had (no connection, a refusal, a 404 or a 500, an answer that is no catalogue).
// The page's own words do not change here: `showStrings` changes them, once they are had.
async function fetchStrings(lang) {
  const res = await fetch(`/api/i18n/${lang}`);
  if (!res.ok) throw new Error(`no words for ${lang}: HTTP ${res.status}`);
  const data = await res.json();
  if (!data || !LANGS.some(([c]) => c === data.lang) || !data.strings
      || typeof data.strings !== "object" || Array.isArray(data.strings)) {
    throw new Error(`no words for ${lang}: not a catalogue`);
  }
  return data;
}

function showStrings(data) {
  STRINGS = data.strings;
  LANG = data.lang;
  document.documentElement.lang = LANG;
  document.title = t("game.name");
}

// The page's first words: the language picked (the player's choice, kept, else the
// browser's), else English, whose words the page then opens in (and says so); else none,
// each text its key: the page comes up all the same, never blank. The language whose
// words could not be had, or null. A choice kept is not forgotten for it: those words
// were had before, and the next page may have them again.
async function firstStrings() {
  const picked = pickLanguage();
  for (const lang of picked === "en" ? ["en"] : [picked, "en"]) {
    try {
      showStrings(await fetchStrings(lang));
      return lang === picked ? null : picked;
    } catch { /* the next, or none */ }
  }
  return picked;
}

// a language's own name, as the list says it
const languageName = (code) => (LANGS.find(([c]) => c === code) || [code, code])[1];

const tokenKey = (code) => `mextrain.token.${code}`;
// notifications a page can show itself: not on Android, whose Chrome shows them only
// from a service worker (nor in browsers without them)
const CAN_NOTIFY = typeof Notification !== "undefined" && !/Android/i.test(navigator.userAgent);
// a table whose game this browser has seen finished: the lobby asks no more about it
// (its token stays, for the table's own page and its "play again")
const doneKey = (code) => `mextrain.done.${code}`;
// the people this browser has muted at a table, by name (whoever takes their seat next
// is heard): a JSON list
const muteKey = (code) => `mextrain.mute.${code}`;
// the table talk as far as this browser's seat at a table has had it in sight: JSON
// {seat, line}, the highest id of a line that was in sight at that seat (a table's line
// ids go up by one from 0, kept in the database with the lines: a restarted server goes
// on from the last). Forgotten with the seat's token.
const talkSeenKey = (code) => `mextrain.talk_seen.${code}`;

// A table this browser has no more to do with (the server knows it no more, its seat was
// left, or its token is void): its seat's token, its mutes, how far its talk was read and
// whether its game was seen over are forgotten together.
function forgetTable(code) {
  for (const key of [tokenKey, muteKey, talkSeenKey, doneKey]) store.remove(key(code));
}

// A seat taken to another device: its link is the table's with the seat's token after a
// "#" (`/t/CODE#seat=TOKEN`: a browser sends no part after "#" to the server, so no log
// or proxy on the way sees the token), opened on that device. The page takes the token
// out of the address at once (it stays in no history, bookmark or copy of the address)
// and says hello with it; only once the server has taken it for a seat is it kept, in
// the place of one this browser had there, so that a link gone stale (its seat left, the
// link cut short) loses nothing: the page goes on as it was and says why.
const SEAT_LINK = /^#seat=(.*)$/;
const SEAT_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;
const seatLink = (code, token) => `${location.origin}/t/${code}#seat=${token}`;

// The token of the seat link this page was opened with (taken out of the address), "" for
// a link whose token cannot be one, or null for no seat link.
function takeSeatLink() {
  const found = SEAT_LINK.exec(location.hash);
  if (!found) return null;
  history.replaceState(history.state, "", location.pathname + location.search);
  let token = "";
  try { token = decodeURIComponent(found[1]); } catch { token = ""; }
  return SEAT_TOKEN.test(token) ? token : "";
}

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail;
    // 422: the form did not validate; the only free text the lobby sends is a name
    throw new Error(d && typeof d === "object" && !Array.isArray(d) ? errorText(d)
      : res.status === 422 ? t("web.error.invalid") : t("web.error.request"));
  }
  return data;
}

// The server's refusals in the player's language (rule errors come translated already;
// {detail} in a catalogue text is the server's own English wording, for the specifics,
// unless the refusal names a rule set's fault, which the catalogue says in full).
function errorText(err) {
  if (!err) return "";
  const key = `web.error.${err.code}`;
  // the framework's own refusals (an unknown address, a method) and a failure of the
  // server's own say nothing to a player
  if (["not_found", "method", "http", "length_required", "server"].includes(err.code)) return t("web.error.request");
  if (!err.code || err.code === "illegal" || !(key in STRINGS)) return err.message;
  if (err.code === "record_illegal" && Number.isInteger(err.round)) return recordFaultText(err);
  return t(key, { detail: ruleText(err.rule) ?? err.message });
}

// Where a record breaks the rules, counted as a reader counts (round 1, move 1: the
// server's indices start at 0), and the rule in the page's language where the engine
// refused a move (``said``), else in the server's English (``reason``)
function recordFaultText(err) {
  let detail = String(err.said ?? err.reason ?? err.message ?? "");
  if (!/[.!?…]$/.test(detail)) detail += ".";
  const round = new Intl.NumberFormat(LANG).format(err.round + 1);
  if (!Number.isInteger(err.action)) return t("web.error.record_illegal_round", { round, detail });
  const move = new Intl.NumberFormat(LANG).format(err.action + 1);
  return t("web.error.record_illegal_at", { round, move, text: String(err.text ?? ""), detail });
}

// The same refusal as a screen reader is told it: a rule error naming a tile says it in
// words ("You can't play tile 0 and 1 on your train"), as the server words it (``said``),
// for "0-1" may be read "0 minus 1"; what shows is the table's "0-1".
function errorSaid(err) {
  return err && err.code === "illegal" && typeof err.said === "string" ? err.said : errorText(err);
}

// A refusal shown over the page, and told at once to a screen reader.
const ErrorLine = ({ error }) => html`<p class="error" role="alert">${shownSaid(errorText(error), errorSaid(error))}</p>`;

// An invalid rule set's fault ("rounds: a double-12 set has only 13 engines"), as
// mextrain.i18n.rules_error_text words it; null if this page has no words for it. A value
// quoted shortened ("'xxxx…' (5,000 characters)" in the server's English) says its length
// in the page's language.
function ruleText(rule) {
  const key = rule && typeof rule === "object" ? `game.rules_error.${rule.code}` : null;
  if (!key || !(key in STRINGS)) return null;
  const params = { ...(rule.params ?? {}) };
  for (const [name, cut] of Object.entries(rule.shortened ?? {})) {
    if (cut && typeof cut.head === "string" && Number.isInteger(cut.length) && typeof cut.unit === "string") {
      params[name] = `${cut.head}(${countWords(cut.unit, cut.length)})`;
    }
  }
  return t("game.rules_error_line", { option: rule.option, text: t(key, params) });
}

// Words to the clipboard (true once there): the Clipboard API where the page has it, else
// the browser's older copy command. A page loaded over plain http from another machine (a
// friend's phone on the home network, at http://192.168.1.5:8000) is no secure context and
// has no navigator.clipboard at all; the copy command still works there, from a click.
function copyText(text) {
  const byCommand = () => {
    const had = document.activeElement;
    const box = document.createElement("textarea");
    box.value = text;
    box.setAttribute("readonly", "");
    box.setAttribute("aria-hidden", "true");
    box.style.cssText = "position:fixed;top:0;left:0;opacity:0;pointer-events:none";
    document.body.appendChild(box);
    box.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch { done = false; }
    box.remove();
    // (the keyboard stays on the button that asked)
    if (had && had !== document.body && document.contains(had)) had.focus({ preventScroll: true });
    return done;
  };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    return navigator.clipboard.writeText(text).then(() => true, byCommand);
  }
  return Promise.resolve(byCommand());
}

// A page that cannot show what it was asked for: its heading all the same (hidden, where
// the keyboard goes, as on every page: the button that led here is gone), and why.
function refusedPage(title, why) {
  return html`<section><h1 class="sr-only">${title}</h1><p class="error" role="alert">${why}</p></section>`;
}

function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("popstate"));
}

// -- app shell --------------------------------------------------------------------------

function App({ unloaded }) {
  const [path, setPath] = useState(location.pathname);
  const [lang, setLang] = useState(LANG);
  // the language whose words are being fetched (the list shows it meanwhile), and the
  // note that one's could not be had ({code}: a new object each time, for its timer)
  const [asking, setAsking] = useState(null);
  const [langNote, setLangNote] = useState(null);
  const langAsked = useRef(0);  // the number of the last choice: the one that wins
  // the page opened in English, its language's words not had: said once the page is
  // there, into its live region there empty before (one that comes with its words is not
  // read out)
  useEffect(() => { if (unloaded) setLangNote({ code: unloaded }); }, []);
  const [big, setBig] = useState(store.get("mextrain.big") === "1");
  useEffect(() => {
    const onPop = () => setPath(location.pathname);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  // another page: its heading takes the focus (a screen reader says where you are, and
  // Tab starts from the top of it), once it has rendered
  const firstPath = useRef(path);
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = null;
    const focusHeading = (tries) => {
      const h = document.querySelector("main h1");
      if (h) { h.setAttribute("tabindex", "-1"); h.focus({ preventScroll: true }); }
      else if (tries > 0) setTimeout(() => focusHeading(tries - 1), 100);
    };
    focusHeading(30);
  }, [path]);
  // A language chosen: it is kept at once (a page opened meanwhile, a link followed before
  // its words came, opens in it), its words are fetched, and the page changes once they
  // are had. The last choice wins, whatever order the words arrive in: an earlier one's
  // are left. Words that could not be had leave the page as it was, the list back on the
  // language shown, and a note in it says so; the language kept goes back to the one kept
  // before (a reload never opens in a language whose words never came); nothing else of
  // the page changes.
  const keptBefore = useRef(null);  // the language kept before the choices being fetched
  const keep = (code) => { store.set("mextrain.lang", code); keepLanguageChosen(code); };
  const changeLang = async (code) => {
    const asked = ++langAsked.current;
    setLangNote(null);
    if (code === LANG) {  // back to the one shown: nothing to fetch
      setAsking(null);
      keptBefore.current = null;
      keep(code);
      return;
    }
    if (keptBefore.current === null) {
      keptBefore.current = keptLanguage() || LANG;
    }
    keep(code);
    setAsking(code);
    let data = null;
    try { data = await fetchStrings(code); } catch { /* the note, below */ }
    if (asked !== langAsked.current) return;
    setAsking(null);
    const before = keptBefore.current;
    keptBefore.current = null;
    if (!data) { keep(before); setLangNote({ code }); return; }
    showStrings(data);
    setLang(LANG);
  };
  // the note goes after a while, or with the next choice
  useEffect(() => {
    if (!langNote) return undefined;
    const timer = setTimeout(() => setLangNote(null), 10000);
    return () => clearTimeout(timer);
  }, [langNote]);
  const toggleBig = () => {
    store.set("mextrain.big", big ? "0" : "1");
    setBig(!big);
  };
  let page;
  let m;
  // keyed by code: "play again" moves to another table, which starts afresh
  // (the whole address: "/replay/12abc" is no game 12, "/t/ab%20cd" no table AB)
  if ((m = path.match(/^\/t\/([A-Za-z0-9]+)\/?$/))) page = html`<${TablePage} key=${m[1].toUpperCase()} code=${m[1].toUpperCase()} big=${big} lang=${lang} />`;
  else if ((m = path.match(/^\/replay\/(\d+)\/?$/))) page = html`<${ReplayPage} id=${m[1]} big=${big} />`;
  else if (path.startsWith("/t/")) page = refusedPage(t("web.table"), t("web.error.no_table"));
  else if (path === "/replay") page = html`<${RecordReplayPage} big=${big} />`;
  else if (path.startsWith("/replay/")) page = refusedPage(t("web.replay"), t("web.error.no_game"));
  else if (path === "/stats") page = html`<${StatsPage} />`;
  else if (path === "/help") page = html`<${HelpPage} />`;
  else page = html`<${Lobby} />`;
  return html`
    <header class="topbar">
      <a href="/" class="brand" onClick=${(e) => { e.preventDefault(); go("/"); }}>${t("game.name")}</a>
      <nav>
        <${HelpLink} path=${path} />
        <a href="/stats" onClick=${(e) => { e.preventDefault(); go("/stats"); }}>${t("web.stats.title")}</a>
        <label class="switch"><input type="checkbox" checked=${big} onChange=${toggleBig} />
          ${t("web.big_numbers")}</label>
        <label><span class="sr-only">${t("web.language")}</span>
          <select aria-label=${t("web.language")} value=${asking ?? lang} onChange=${(e) => changeLang(e.target.value)}>
            ${LANGS.map(([c, n]) => html`<option value=${c}>${n}</option>`)}
          </select></label>
      </nav>
    </header>
    <main>
      <div class="lang-note-said" role="status" aria-live="polite">${langNote
        && html`<p class="notice lang-note">${t("web.language_failed", { language: languageName(langNote.code) })}</p>`}</div>
      ${page}</main>`;
}

// -- how to play ------------------------------------------------------------------------

// what a link that opens in a new tab says to a screen reader, which would not know
const newTab = () => html`<span class="sr-only"> (${t("web.new_tab")})</span>`;

// "How to play": from a table it opens in a new tab, so the game (and its connection)
// stays where it is.
// (with the table's code, for the rules in short to say its rounds)
function HelpLink({ path }) {
  if (path && path.startsWith("/t/")) {
    const href = `/help?table=${encodeURIComponent(path.slice(3).replace(/\/$/, ""))}`;
    return html`<a href=${href} target="_blank" rel="noopener">${t("web.help.title")}${newTab()}</a>`;
  }
  return html`<a href="/help" onClick=${(e) => { e.preventDefault(); go("/help"); }}>${t("web.help.title")}</a>`;
}

// The words for a game's rounds and engines a table is sent with: the catalogue key
// mextrain.i18n's length_key chooses, and the engines, whose count and first and last say
// its parameters, as length_key gives them ("6-6", "12-12, 3-3, 7-7").
function lengthWords({ key, engines }) {
  const double = (pip) => `${pip}-${pip}`;
  const first = double(engines[0]);
  const params = { engine: first, first, last: double(engines[engines.length - 1]),
    engines: engines.map(double).join(", ") };
  return key === "game.rules_length.single" ? t(key, params) : tn(key, engines.length, params);
}

// The rules in short, whose first words say a full game's 13 rounds from the 12-12 engine
// down to 0-0: for a table of other rounds (``length``, as the server sends it), those
// words say its own, as the terminal's help does (mextrain.i18n.rules_in_short).
function rulesInShort(length) {
  const short = t("game.rules_short");
  if (!length || !length.full) return short;
  const full = lengthWords(length.full);
  const said = lengthWords(length);
  if (said === full) return short;
  return short.startsWith(full) ? said + short.slice(full.length) : `${said}.\n${short}`;
}

function HelpPage() {
  useEffect(() => { document.title = `${t("web.help.title")} · ${t("game.name")}`; }, [LANG]);
  // opened from a table ("/help?table=AB3CD"): the rules in short say its rounds
  const code = new URLSearchParams(location.search).get("table");
  const [length, setLength] = useState(null);
  useEffect(() => {
    if (!code || !/^[A-Za-z0-9]{1,12}$/.test(code)) return undefined;
    let gone = false;
    fetch(`/api/tables/${code}`).then((res) => (res.ok ? res.json() : null))
      .then((info) => { if (!gone && info && info.length) setLength(info.length); })
      .catch(() => {});  // (the help as it is for any game)
    return () => { gone = true; };
  }, [code]);
  // a link to a part of the page ("/help#rule-sets"): there once the page is drawn
  useEffect(() => {
    const part = location.hash && document.getElementById(location.hash.slice(1));
    if (part) part.scrollIntoView();
  }, []);
  const paras = (text) => text.split("\n").map((p) => html`<p>${p}</p>`);
  return html`<section class="help">
    <h1>${t("web.help.title")}</h1>
    <h2>${t("game.rules_short_title")}</h2>
    ${paras(rulesInShort(length))}
    <h2 id="rule-sets">${t("web.help.presets_title")}</h2>
    <dl>${["classic", "relaxed", "cardinal"].map((p) => html`<dt>${t(`web.preset.${p}`)}</dt>
      <dd>${t(`game.help.preset.${p}`)}</dd>`)}</dl>
    <h2>${t("web.house_rules")}</h2>
    <dl>${HOUSE.map((k) => html`<dt>${t(`web.house.${k}`)}</dt><dd>${cap(t(`game.help.house.${k}`))}</dd>`)}</dl>
    <h2>${t("web.help.page_title")}</h2>
    ${paras(t("web.help.page"))}
    <h2>${t("web.help.online_title")}</h2>
    <p>${t("web.help.online")}</p>
  </section>`;
}

// -- lobby ------------------------------------------------------------------------------

// the server's MAX_CODES_ASKED: tables one request may ask about
const TABLES_ASKED = 50;

// The tables this browser holds a seat at whose games are not over: back to a game after
// closing its tab, without its link. A table the server no longer knows loses its token.
function YourTables() {
  const [tables, setTables] = useState([]);
  useEffect(() => {
    let gone = false;
    const prefix = tokenKey("");
    // (one request for them all, as many as the server answers at once: TABLES_ASKED)
    const codes = store.keys().filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .filter((c) => /^[A-Za-z0-9]{1,12}$/.test(c) && !store.get(doneKey(c))).slice(0, TABLES_ASKED);
    if (!codes.length) return undefined;
    fetch(`/api/tables?codes=${codes.join(",")}`).then((res) => (res.ok ? res.json() : null)).then((answer) => {
      if (!answer || gone) return;
      const found = [];
      for (const c of codes) {
        const table = answer.tables[c.toUpperCase()];
        if (table === null) forgetTable(c);
        else if (table && table.status === "finished") store.set(doneKey(c), "1");
        else if (table) found.push(table);
      }
      setTables(found);
    }).catch(() => {});  // offline for now: asked again next time
    return () => { gone = true; };
  }, []);
  if (!tables.length) return null;
  return html`<section class="your-tables" aria-labelledby="yours-h">
    <h2 id="yours-h">${t("web.lobby.yours")}</h2>
    <ul>${tables.map((tb) => html`<li key=${tb.code}>
      <a href=${`/t/${tb.code}`} onClick=${(e) => { e.preventDefault(); go(`/t/${tb.code}`); }}>${t("web.table")} ${tb.code}</a>
      <span class="muted"> · ${rulesName(tb.rules, tb.seats.length)} · ${seatNames(tb.seats).filter((n, i) => tb.seats[i].kind !== "open")
        .map((n, i) => html`${i ? ", " : ""}<bdi>${n}</bdi>`)} · ${
        t(tb.status === "waiting" ? "web.lobby.yours_waiting" : "web.lobby.yours_playing")}</span></li>`)}</ul>
  </section>`;
}

// The house rules the lobby offers, by RULES.md's names.
const HOUSE = ["first_turn_run", "draw_until_playable", "no_going_out_on_double", "mexican_after_own_train"];

// "Winner: Ana", or "Winners: Ana, Ben" on a tie
const winnersLine = (names) => t(names.length === 1 ? "web.winner_named" : "web.winners_list",
  { names: names.join(", ") });

// A table's rules in words: the preset, then any house rule on ("Classic · Draw until a
// tile fits"), then every other option the table changes, in words where the page has them
// ("0-0 counts 50"), else as a record writes it ("marker_rule=\"no_own_play\""): the lobby
// offers a few, the API takes them all. The number of rounds is said apart; engines out of
// the usual order here.
function rulesName(rules, players) {
  const spec = { ...(typeof rules === "string" ? { preset: rules } : rules || {}) };
  // the lobby's first-turn run is written as the option it sets (first_turn: "run")
  if (spec.first_turn === "run") { spec.first_turn_run = true; delete spec.first_turn; }
  const words = [t(`web.preset.${spec.preset}`)];
  for (const k of [...HOUSE, "mexican_after_first_round_of_turns"]) if (spec[k] === true) words.push(t(`web.house.${k}`));
  if (spec.double_blank_points) words.push(t("web.house.double_blank_points", { points: spec.double_blank_points }));
  if (spec.unsatisfied_double_penalty) words.push(tn("web.house.unsatisfied_double_penalty", spec.unsatisfied_double_penalty));
  if (spec.max_pip !== undefined) words.push(t("web.house.max_pip", { max: spec.max_pip }));
  if (Array.isArray(spec.rounds)) words.push(t("web.house.engines", { list: spec.rounds.map((p) => `${p}-${p}`).join(", ") }));
  // the hand size at this table's number of seats ("5 tiles each")
  const dealt = spec.hand_size && players !== undefined ? spec.hand_size[String(players)] : undefined;
  if (dealt !== undefined) words.push(tn("web.house.hand_size", dealt));
  const said = new Set(["preset", "rounds", "double_blank_points", "unsatisfied_double_penalty", "max_pip",
    ...HOUSE, "mexican_after_first_round_of_turns", ...(dealt !== undefined ? ["hand_size"] : [])]);
  for (const [k, v] of Object.entries(spec)) if (!said.has(k)) words.push(`${k}=${JSON.stringify(v)}`);
  return words.join(" · ");
}

function Lobby() {
  const [options, setOptions] = useState(null);
  const [name, setName] = useState(store.get("mextrain.name") || "");
  const [preset, setPreset] = useState("classic");
  const [seats, setSeats] = useState(["bot:greedy", "bot:greedy", "bot:greedy"]);
  const [house, setHouse] = useState({});
  const [rounds, setRounds] = useState(13);
  // the time per move chosen last time in this browser, if the lobby still offers it
  const [pace, setPace] = useState(() => {
    const last = store.get("mextrain.bot_pace");
    return BOT_PACES.includes(last) ? last : "normal";
  });
  const [turnTime, setTurnTime] = useState(() => {
    const last = Number(store.get("mextrain.turn_time"));
    return TURN_TIMES.includes(last) ? last : 0;
  });
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  // one request at a time: a double click must not create two tables
  const busy = useRef(false);
  const [waiting, setWaiting] = useState(false);
  const once = (work) => async (e) => {
    e.preventDefault();
    if (busy.current) return;
    busy.current = true;
    setWaiting(true);
    setError("");
    try { await work(); } catch (err) { setError(err.message); } finally {
      busy.current = false;
      setWaiting(false);
    }
  };
  useEffect(() => { api("/api/options").then((o) => {
    setOptions(o);
    // a time remembered that this server no longer offers: its next one up, not none
    setTurnTime((s) => !s || turnTimes(o).includes(s) ? s : (turnTimes(o).find((a) => a >= s) ?? 0));
    const level = o.bots.includes("medium") ? "medium" : o.bots.includes("planner") ? "planner" : o.bots[o.bots.length - 1];
    setSeats((s) => s.map(() => `bot:${level}`));
  }); }, []);
  if (!options) return html`<p>${t("web.loading")}</p>`;
  const remember = () => store.set("mextrain.name", name.trim());
  const create = once(async () => {
    const opts = { ...house };
    // what the box holds (the browser checks a whole number from 1 to 13, and refuses an
    // empty box: it was sent as no choice at all, a game of 13 rounds)
    const count = Number(rounds);
    if (Number.isInteger(count) && count >= 1 && count !== 13) opts.rounds = count;
    const body = { name: name.trim(), preset, seats, options: opts };
    if (turnTime) body.turn_time = turnTime;
    if (pace !== "normal") body.bot_pace = pace;
    const res = await api("/api/tables", body);
    remember();
    store.set("mextrain.turn_time", String(turnTime));
    store.set("mextrain.bot_pace", pace);
    store.set(tokenKey(res.code), res.token);
    go(res.link);
  });
  // a code is letters and digits: anything else ("AB/CD") would be another address; the
  // table's link, as the waiting room shares it, stands for its code
  const tableCode = () => {
    const typed = code.trim();
    const link = typed.match(/\/t\/([A-Za-z0-9]+)\/?(?:[?#].*)?$/);
    const c = (link ? link[1] : typed).toUpperCase();
    if (!/^[A-Z0-9]+$/.test(c)) throw new Error(t("web.error.no_table"));
    return c;
  };
  const join = once(async () => {
    const c = tableCode();
    const res = await api(`/api/tables/${c}/join`, { name: name.trim() });
    remember();
    store.set(tokenKey(res.code), res.token);
    go(`/t/${res.code}`);
  });
  const watch = once(async () => go(`/t/${tableCode()}`));
  const edit = (set) => (e) => { set(e.target.value); setError(""); };
  const setSeat = (i, v) => setSeats(seats.map((s, j) => (j === i ? v : s)));
  // the preset's players, the creator's seat included: no seat beyond them is offered,
  // and a count it is not for says so before anything is sent
  const [low, high] = options.players[preset];
  const count = seats.length + 1;
  const fits = count >= low && count <= high;
  return html`
    <section class="lobby">
      <h1>${t("web.lobby.title")}</h1>
      <p class="lead">${t("web.lobby.lead")}</p>
      <${YourTables} />
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <label class="field">${t("web.your_name")}
        <input name="name" value=${name} maxlength="24" required autocomplete="nickname"
          onInput=${edit(setName)} /></label>
      <div class="cards">
        <form class="card" onSubmit=${create} aria-labelledby="create-h">
          <h2 id="create-h">${t("web.lobby.create")}</h2>
          <label class="field">${t("web.rules")}
            <select name="preset" value=${preset} onChange=${(e) => setPreset(e.target.value)}>
              ${options.presets.map((p) => html`<option value=${p}>${t(`web.preset.${p}`)}</option>`)}
            </select></label>
          <label class="field">${t("web.rounds")}
            <input type="number" name="rounds" min="1" max="13" required value=${rounds}
              onInput=${edit(setRounds)} /></label>
          <label class="field">${t("web.turn_time")}
            <select name="turn_time" value=${turnTime} onChange=${(e) => setTurnTime(Number(e.target.value))}>
              ${turnTimes(options).map((s) => html`<option value=${s}>${s ? clockWords(s) : t("web.turn_time.none")}</option>`)}
            </select></label>
          <label class="field">${t("web.bot_pace")}
            <select name="bot_pace" value=${pace} onChange=${(e) => setPace(e.target.value)}>
              ${BOT_PACES.map((p) => html`<option value=${p}>${t(`web.bot_pace.${p}`)}</option>`)}
            </select></label>
          <fieldset>
            <legend>${t("web.house_rules")}</legend>
            ${HOUSE.map((k) => html`<label class="check"><input type="checkbox" checked=${!!house[k]}
              onChange=${(e) => setHouse({ ...house, [k]: e.target.checked })} /> ${t(`web.house.${k}`)}</label>`)}
          </fieldset>
          <fieldset>
            <legend>${t("web.seats")}</legend>
            <div class="seat-row"><span>1</span><span>${t("web.you")}</span></div>
            ${seats.map((s, i) => html`<div class="seat-row"><span>${i + 2}</span>
              <select aria-label=${t("game.seat", { number: i + 2 })} value=${s} onChange=${(e) => setSeat(i, e.target.value)}>
                <option value="open">${t("web.seat.open")}</option>
                ${options.bots.map((b) => html`<option value=${`bot:${b}`}>${t("web.seat.bot", { level: t(`web.bot.${b}`) })}</option>`)}
              </select>
              <button type="button" class="small" aria-label=${t("web.seat.remove", { number: i + 2 })} disabled=${seats.length <= 1}
                onClick=${() => setSeats(seats.filter((_, j) => j !== i))}>✕</button></div>`)}
            <button type="button" class="small" disabled=${count >= high}
              onClick=${() => setSeats([...seats, "open"])}>${t("web.seat.add")}</button>
            ${!fits && html`<p class="error" role="alert">${t("web.players_range", { low, high, count })}</p>`}
          </fieldset>
          <button type="submit" class="primary" disabled=${!name.trim() || waiting || !fits}>${t("web.lobby.create_button")}</button>
        </form>
        <form class="card" onSubmit=${join} aria-labelledby="join-h">
          <h2 id="join-h">${t("web.lobby.join")}</h2>
          <label class="field">${t("web.code")}
            <input name="code" value=${code} maxlength="200" autocapitalize="characters"
              onInput=${edit(setCode)} /></label>
          <button type="submit" class="primary" disabled=${!name.trim() || !code.trim() || waiting}>${t("web.lobby.join_button")}</button>
          <button type="button" disabled=${!code.trim()}
            onClick=${watch}>${t("web.lobby.watch")}</button>
        </form>
      </div>
    </section>`;
}

// -- the table --------------------------------------------------------------------------

function useTableSocket(code, lang) {
  const [msg, setMsg] = useState(null);
  const [error, setError] = useState(null);
  const [hint, setHint] = useState(null);
  const [online, setOnline] = useState(false);
  // connected and holding the position the server sent since: until then the page shows
  // the position from before the connection dropped, which may have moved on
  const [synced, setSynced] = useState(false);
  const [fatal, setFatal] = useState(null);
  // the table talk's latest lines, oldest first (the server sends the last 50 on arrival)
  const [chat, setChat] = useState([]);
  // the latest line said while connected (not one of those sent on arrival)
  const [heard, setHeard] = useState(null);
  // the position at which the server made this seat's move after its time ran out (null:
  // none); told until the player moves, or the game is over
  const [timeUp, setTimeUp] = useState(null);
  // the seat link this page was opened with: its token, until the server has taken it for
  // a seat (then kept) or refused it; and whether it was refused (or was no token at all)
  const linked = useRef(undefined);
  if (linked.current === undefined) linked.current = takeSeatLink();
  const [linkRefused, setLinkRefused] = useState(linked.current === "");
  if (linked.current === "") linked.current = null;
  // the seat a link has just given this browser, until the talk comes: what was said
  // before counts as read (the player had it on the other device), and how far that is
  const adopted = useRef(null);
  const [talkAdopted, setTalkAdopted] = useState(null);
  // the seat's link renewed from this page (how many times: the link box shows the new
  // one and says the old is void), and whether another device renewed it, so this page
  // only watches now
  const [renewed, setRenewed] = useState(0);
  const [seatMoved, setSeatMoved] = useState(false);
  // the token this connection said hello with
  const helloToken = useRef(null);
  const wsRef = useRef(null);
  // a seat link opened in the tab already at the table (pasted in its address: the page
  // is not loaded again, only its "#" part changes): tried as on arrival, on a new
  // connection
  useEffect(() => {
    const onHash = () => {
      const token = takeSeatLink();
      if (token === null) return;
      setLinkRefused(token === "");
      if (!token) return;
      linked.current = token;
      if (wsRef.current) wsRef.current.close();
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [code]);
  // whether this page's seat moved to a new link (`seat_moved`) and it has no token
  // for the seat since
  const movedAway = useRef(false);
  // the new token of a seat whose link another tab of this browser renewed, kept by that
  // tab once the server has answered it (before this page was told the seat moved, or
  // after): this page says hello with it, on a new connection. (Only then: two tabs
  // that hold two seats each keep their own while the storage holds one of them.)
  useEffect(() => {
    const onStorage = (e) => {
      if (!movedAway.current || e.key !== tokenKey(code) || !e.newValue) return;
      if (e.newValue === helloToken.current) return;
      if (wsRef.current) wsRef.current.close();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [code]);
  // the language to say hello in; a switch is told on the same connection (connecting
  // again showed the player offline to the others for a moment, and lost a move sent then)
  const langRef = useRef(lang);
  useEffect(() => {
    if (langRef.current === lang) return;
    langRef.current = lang;
    const ws = wsRef.current;
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "lang", lang }));
  }, [lang]);
  useEffect(() => {
    let stop = false;
    let retry = 500;
    let timer = null;
    const connect = () => {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
      wsRef.current = ws;
      ws.onopen = () => {
        retry = 500;
        setOnline(true);
        const token = linked.current || store.get(tokenKey(code)) || null;
        helloToken.current = token;
        ws.send(JSON.stringify({ type: "hello", token, lang: langRef.current }));
      };
      ws.onmessage = (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type === "state") { setMsg(m); setError(null); setSynced(true); }
        else if (m.type === "welcome") {
          // the seat link's token took a seat: this browser keeps it (in the place of any
          // it had at this table: the link is the player's word for which seat is theirs)
          if (linked.current && m.seat !== null) {
            store.set(tokenKey(code), linked.current);
            linked.current = null;
            adopted.current = m.seat;
          }
          if (m.seat !== null) { setSeatMoved(false); movedAway.current = false; }
        } else if (m.type === "error") {
          if (m.code === "bad_token" && linked.current) {
            // the link's token took no seat: the page goes on as it would have without
            // it (the connection, closed by the server, is made again with its own)
            linked.current = null;
            setLinkRefused(true);
            return;
          }
          if (m.code === "no_table" || m.code === "bad_token") {
            forgetTable(code);
            setFatal(m.code);
            stop = true;
          }
          // two people pressing Start together: the game has started, which is the point
          if (m.code === "started") return;
          setError(m);
        } else if (m.type === "hint") setHint(m);
        else if (m.type === "time_up") setTimeUp(m.version);
        else if (m.type === "chat_log") {
          setChat(m.lines);
          if (adopted.current !== null && m.lines.length) {
            const seen = { seat: adopted.current, line: m.lines[m.lines.length - 1].id };
            store.set(talkSeenKey(code), JSON.stringify(seen));
            setTalkAdopted(seen);
          }
          adopted.current = null;
        }
        else if (m.type === "chat") {
          setChat((lines) => lines.some((l) => l.id === m.line.id) ? lines : [...lines, m.line].slice(-CHAT_KEPT));
          setHeard(m.line);
        }
        else if (m.type === "seat_token") {  // the seat's new token: the old link is void
          store.set(tokenKey(code), m.token);
          helloToken.current = m.token;
          setRenewed((n) => n + 1);
        } else if (m.type === "seat_moved") {
          // another device renewed this seat's link: the old token this page held opens
          // it no more (forgotten), and the page watches on. The same browser's other tab
          // may have renewed it: once it keeps the new token (before this or after), this
          // tab takes it too (the "storage" listener below).
          const kept = store.get(tokenKey(code));
          movedAway.current = true;
          if (kept && kept !== helloToken.current) ws.close();
          else {
            if (kept) store.remove(tokenKey(code));
            setSeatMoved(true);
          }
        }
        else if (m.type === "left") {  // this seat left the table: its token is void
          forgetTable(m.code);
          stop = true;
          go("/");
        } else if (m.type === "rematch") {  // play again: the new table, our seat's token
          store.set(tokenKey(m.code), m.token);
          go(`/t/${m.code}`);
        }
      };
      ws.onclose = () => {
        setOnline(false);
        setSynced(false);
        if (!stop) { timer = setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); }
      };
    };
    connect();
    return () => { stop = true; clearTimeout(timer); wsRef.current && wsRef.current.close(); };
  }, [code]);
  // true when the message went out (false while the connection is down: nothing is queued)
  const send = useCallback((m) => {
    const ws = wsRef.current;
    if (!ws || ws.readyState !== 1) return false;
    ws.send(JSON.stringify(m));
    return true;
  }, []);
  // the notice stays into the player's next turn (they see why their hand changed while
  // they were away from the screen), until they move; once the game is over it is stale
  useEffect(() => {
    if (timeUp !== null && msg && msg.table.status !== "playing") setTimeUp(null);
  }, [msg, timeUp]);
  // connect again (a seat just taken on this page, its token kept by the page alone: the
  // next hello says it, where a reload would have lost it)
  const reconnect = useCallback(() => { if (wsRef.current) wsRef.current.close(); }, []);
  return { msg, error, setError, hint, setHint, online, synced, fatal, send, chat, heard, timeUp, setTimeUp, reconnect, linkRefused, talkAdopted, renewed, seatMoved };
}

// ``text`` as a QR code, black on white whatever the page's colours (a camera needs the
// contrast), with the four modules of quiet zone around it that the standard asks for.
function QrCode({ text, label }) {
  const qr = useMemo(() => qrEncode(text, { ecc: "M", border: 4 }), [text]);
  let path = "";
  qr.data.forEach((row, y) => row.forEach((dark, x) => { if (dark) path += `M${x} ${y}h1v1h-1z`; }));
  return html`<svg class="qr" viewBox=${`0 0 ${qr.size} ${qr.size}`} role="img" aria-label=${label}
      shape-rendering="crispEdges" data-size=${qr.size}>
    <rect width=${qr.size} height=${qr.size} fill="#fff" /><path d=${path} fill="#000" /></svg>`;
}

// The seat taken to another device (a phone's battery running out, a move to the
// laptop): a button that shows the seat's own link, to open on the other device, where
// the page plays the seat too (both pages hold it; leaving the table from either gives
// it up). The link is a key to the seat: the words beside it say to share it with no one,
// and *New link* voids it (a link given to the wrong person, a phone lost): the devices
// that opened it only watch from then on, this one keeps the seat. ``renewed``: how many
// times this page has had a new link (the server's answer: the token kept, the link
// shown).
function SeatLinkBox({ code, send, renewed }) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  // the count of new links when the last was asked for here (the answer says it is done)
  const [asked, setAsked] = useState(null);
  const token = store.get(tokenKey(code));
  if (!token) return null;
  const link = seatLink(code, token);
  const id = `seat-link-${code}`;
  const renew = () => { if (send({ type: "new_seat_link" })) { setAsked(renewed); setCopied(false); } };
  return html`<div class="seat-link">
    <button class="small" aria-expanded=${open} aria-controls=${id}
      onClick=${() => { setOpen(!open); setCopied(false); setAsked(null); }}>${t("web.seat_link.button")}</button>
    ${open && html`<div id=${id} class="seat-link-box">
      <p>${t("web.seat_link.help")}</p>
      <${QrCode} text=${link} label=${t("web.seat_link.qr")} />
      <p class="seat-link-row"><input readonly value=${link} aria-label=${t("web.seat_link.label")}
          onFocus=${(e) => e.target.select()} />
        <button class="small" onClick=${() => copyText(link).then(setCopied)}>${t("web.seat_link.copy")}</button>
        ${copied && html`<span class="muted" role="status">${t("web.copied")}</span>`}</p>
      <p class="seat-link-row"><button class="small" onClick=${renew}>${t("web.seat_link.renew")}</button>
        <span class="muted">${t("web.seat_link.renew_help")}</span></p>
      <p class="muted" role="status">${asked !== null && renewed > asked ? t("web.seat_link.renewed") : ""}</p></div>`}
  </div>`;
}

// The note that this browser would not keep the seat (a reload loses it), in a polite
// live region of its own that is there empty before the words come: a region that comes
// with its words is not read out, and the note shows with the table, or once a seat is
// taken at its page. ``told``: the table page's ref, set once the note was in sight; a
// note shown again (the waiting room's, moved to the table as the game starts) comes
// with its words, not to be read out twice.
function SeatNote({ shown, told }) {
  const [ready, setReady] = useState(told.current);
  useEffect(() => { setReady(true); }, []);
  useEffect(() => { if (ready && shown) told.current = true; }, [ready, shown]);
  return html`<div class="seat-not-kept-said" role="status" aria-live="polite">${ready && shown
    && html`<p class="seat-not-kept muted">${t("web.seat.not_kept")}</p>`}</div>`;
}

function TablePage({ code, big, lang }) {
  const { msg, error, setError, hint, setHint, online, synced, fatal, send, chat, heard, timeUp, setTimeUp, reconnect, linkRefused, talkAdopted, renewed, seatMoved } = useTableSocket(code, lang);
  const [muted, setMuted] = useMuted(code);
  // what is being typed to the table, kept here: the waiting room's talk and the table's
  // are two boxes, and a line half typed when the game starts goes on in the second
  const talkDraft = useState("");
  const talkPending = useRef(null);
  // the tile chosen, with the position it was chosen in: a new position puts it back at
  // once, as it is drawn (an effect did it after the page was painted, and a tile chosen
  // in between was put back under the click that chose it: the click on its train then
  // did nothing)
  const [choice, setChoice] = useState(null);
  const shownVersion = useRef(null);
  shownVersion.current = msg ? msg.version : null;
  const selected = choice && choice.version === shownVersion.current ? choice.tile : null;
  const setSelected = useCallback(
    (tile) => setChoice(tile === null ? null : { tile, version: shownVersion.current }), []);
  const [seenRounds, setSeenRounds] = useState(null);
  const [dialog, setDialog] = useState(null);
  // whether the turn's prompt (a live region of its own, outside the round's result) may
  // speak: not while the result is open, a modal dialog that makes the rest of the page
  // inert (the next round's first turn, dealt meanwhile, was told to no one, and its words
  // were not heard once the result closed, being the same), and only once the page is no
  // longer inert after it closed, when the words come and are heard, once
  const [promptFree, setPromptFree] = useState(true);
  useEffect(() => { setPromptFree(!dialog); }, [dialog]);
  const [joinName, setJoinName] = useState(store.get("mextrain.name") || "");
  const [starting, setStarting] = useState(false);  // Start was pressed: once is enough
  const [copied, setCopied] = useState(false);
  // whether the note that a reload loses the seat was told (SeatNote)
  const notKeptTold = useRef(false);
  // leaving for good, after a yes: the seat goes to a bot (or opens again before the start)
  const leave = () => {
    if (window.confirm(t(msg && msg.table.status === "playing" ? "web.leave.confirm_playing" : "web.leave.confirm"))) {
      send({ type: "leave" });
    }
  };
  const copyLink = (link) => copyText(link).then((done) => { if (done) setCopied(true); });
  const joining = useRef(false);
  const drag = useRef(null);
  const [dragging, setDragging] = useState(null);
  // what a screen reader is told of the game as it goes: the last move, a tile drawn, a
  // tile that fits nowhere (two live regions taken in turn, there from the start, so that
  // the same words twice in a row are told twice: said.js)
  const [said, setSaidNow] = useState(SILENT);
  const setSaid = (words) => setSaidNow((now) => say(now, words));
  // what someone else just said, over the page for a few seconds: the talk itself may be
  // out of sight (under the board on a phone); a click on it goes there
  const [toast, setToast] = useState(null);
  const toastBox = useRef(null);
  useEffect(() => {
    if (!heard || !msg || heard.seat === msg.you || muted.has(heard.name)) return;
    setToast(heard);
  }, [heard]);
  // each line shown goes after 6 s (a timer of the line, not of the latest line heard: a
  // line of one's own, heard meanwhile, once left the one showing there for good). On a
  // touch screen the line keeps to its room above the board and scrolls away with it
  // (stuck to the window's top it covered the trains, or the talk's buttons, of a page
  // scrolled down): its 6 s run only while it is in sight, so that a line said while the
  // player looked further down is still there when they come back to the board
  const [toastSeen, setToastSeen] = useState(true);
  useEffect(() => {
    const el = toastBox.current;
    if (!toast || !el || typeof IntersectionObserver === "undefined") return undefined;
    const watch = watchInSight(el, setToastSeen);
    return () => { watch.disconnect(); setToastSeen(true); };
  }, [toast]);
  useEffect(() => {
    if (!toast || !toastSeen) return undefined;
    const timer = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(timer);
  }, [toast, toastSeen]);
  // muting a player takes their words off the page at once, the line showing too
  useEffect(() => { if (toast && muted.has(toast.name)) setToast(null); }, [muted]);
  // the lines others said that this seat has not had in sight on this page (half of the
  // talk at least), told by the button to the talk in the hand's row (shown where the talk
  // is under the hand: a phone, a narrow window): counted while the talk is out of sight,
  // a muted player's not, one's own never, and none once it shows. What was in sight is
  // kept in this browser (talkSeenKey): the lines said while the page was closed or its
  // connection down, sent again on arrival, count as those heard live do, and the lines
  // read before a reload do not count again. A spectator has no hand's row to show a
  // count in, nor a seat to keep one for: nothing is counted or kept for them.
  const [talkSeen, setTalkSeen] = useState(false);
  const [seenUpTo, setSeenUpTo] = useState(() => readTalkSeen(code));
  // (a seat a link brought here: the talk before it was had on the other device)
  useEffect(() => { if (talkAdopted) setSeenUpTo(talkAdopted); }, [talkAdopted]);
  // the waiting room's talk is watched too (lines read there are not counted once the
  // game starts), by a watch of its own: as the game starts the one box goes and the
  // other comes, and the one's end may be told after the other's start
  const talkWatches = useRef({});
  const talkBoxes = useMemo(() => Object.fromEntries(["waiting", "table"].map((where) => [where, (el) => {
    const watch = talkWatches.current[where];
    if (watch) { watch.disconnect(); delete talkWatches.current[where]; }
    if (!el || typeof IntersectionObserver === "undefined") return;
    talkWatches.current[where] = watchInSight(el, setTalkSeen);
  }])), []);
  const mySeat = msg ? msg.you : null;
  const seenLine = mySeat !== null && seenUpTo && seenUpTo.seat === mySeat ? seenUpTo.line : -1;
  // the whole talk now in sight, or gone to: its last line read at this seat
  const readTalk = () => {
    const last = chat.length ? chat[chat.length - 1].id : -1;
    if (mySeat === null || last <= seenLine) return;
    const kept = readTalkSeen(code);  // (another tab at the same seat may have read on)
    const line = kept && kept.seat === mySeat ? Math.max(kept.line, last) : last;
    store.set(talkSeenKey(code), JSON.stringify({ seat: mySeat, line }));
    setSeenUpTo({ seat: mySeat, line });
  };
  useEffect(() => { if (talkSeen) readTalk(); }, [talkSeen, chat, mySeat]);
  const myName = mySeat !== null ? msg.table.seats[mySeat].name : null;
  const unreadCount = mySeat === null || talkSeen ? 0 : chat.filter((line) => line.id > seenLine
    && !(line.seat === mySeat && line.name === myName) && !muted.has(line.name)).length;
  // the line at the top of the window covers none of the hand: scrolled to the foot of
  // a long page (the talk and the score sheet under the hand, on a phone), the hand
  // stands near the top, and the line goes under it (placed before paint, and again as
  // the page scrolls or turns)
  useLayoutEffect(() => {
    const el = toastBox.current;
    if (!toast || !el) return undefined;
    const place = () => {
      el.style.top = "";
      const hand = document.querySelector(".hand-area");
      if (!hand || !el.parentElement) return;
      const line = el.getBoundingClientRect();
      const under = hand.getBoundingClientRect();
      if (line.bottom <= under.top || line.top >= under.bottom) return;
      const below = under.bottom + 8;
      if (below + line.height <= window.innerHeight) {
        el.style.top = `${below - el.parentElement.getBoundingClientRect().top}px`;
      }
    };
    place();
    window.addEventListener("scroll", place, { passive: true });
    window.addEventListener("resize", place);
    return () => {
      window.removeEventListener("scroll", place);
      window.removeEventListener("resize", place);
    };
  }, [toast]);
  const lastHand = useRef(null);
  // Draw or Pass pressed: the button turns disabled and would drop the focus to the page
  // (true: to the hand if it was dropped); "hand": to the hand wherever it is (the d and p
  // keys, a tile played from the keyboard on a train)
  const refocus = useRef(false);

  const live = useRef(null);
  useEffect(() => {
    const moveH = (e) => {
      const d = drag.current;
      if (!d || e.pointerId !== d.id) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 8) {
        d.moved = true;
        setSelected(d.tile);
        setTimeout(revealTargets, 0);  // where it may be dropped, out from under the hand
      }
      if (d.moved) { e.preventDefault(); setDragging({ tile: d.tile, x: e.clientX, y: e.clientY }); }
    };
    const up = (e) => {
      const d = drag.current;
      // (another finger lifted while one drags a tile: the drag goes on)
      if (!d || e.pointerId !== d.id) return;
      drag.current = null;
      if (!d.moved || !live.current) return;
      setDragging(null);
      const el = document.elementFromPoint(e.clientX, e.clientY);
      const target = el && el.closest("[data-train]");
      const m = target && `${d.tile}@${target.dataset.train}`;
      if (m && live.current.legal.includes(m)) live.current.move(m);
    };
    const onKey = (e) => {
      const c = live.current;
      if (!c || !isShortcut(e)) return;
      if (e.key === "Escape") {
        // a chosen tile is put back, and the keyboard with it
        const chosen = document.querySelector(".hand-tile.selected");
        if (chosen && !c.dialogOpen) chosen.focus({ preventScroll: true });
        setSelected(null);
        setDialog(null);
        return;
      }
      if (c.dialogOpen) return;  // the round's result is showing: keys are the dialog's
      // a letter in either case: Caps Lock or Shift on gives "D", which is still a draw
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      // (the keyboard goes back to the hand, as after the buttons, from wherever it was)
      if (key === "d" && c.legal.includes("draw")) { refocus.current = "hand"; c.move("draw"); }
      else if (key === "p" && c.legal.includes("pass")) { refocus.current = "hand"; c.move("pass"); }
      // as the Hint button: on the player's own turn only
      else if (key === "h" && c.myTurn && !c.sending) c.send({ type: "hint", version: c.version });
      // as the Undo button: alone against bots, a move of this round to take back
      else if (key === "u" && c.canUndo && !c.sending) { refocus.current = "hand"; c.send({ type: "undo", version: c.version }); }
    };
    // a drag the browser broke off (a system gesture, a call coming in on a phone): no
    // tile goes anywhere, and its picture does not stay stuck over the page
    const cancel = (e) => {
      const d = drag.current;
      if (!d || e.pointerId !== d.id) return;
      drag.current = null;
      setDragging(null);
    };
    window.addEventListener("pointermove", moveH, { passive: false });
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("pointermove", moveH);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      window.removeEventListener("keydown", onKey);
    };
  }, []);

  const sheet = msg && msg.sheet;
  useEffect(() => {
    if (!sheet) return;
    const n = sheet.rounds.length;
    // a round that ends while we watch; or, arriving (a reload, a dropped connection)
    // during the pause after a round of a match still in play, that round's end
    const arrivedAtEnd = seenRounds === null && n > 0 && !sheet.complete && msg.round && msg.round.ended;
    if ((seenRounds !== null && n > seenRounds) || arrivedAtEnd) {
      const r = msg.round;
      const out = r && r.ended === "out" ? r.hand_sizes.indexOf(0) : -1;
      // (the tiles each seat was left with, laid down to be counted: kept, for the next
      // deal may come while the dialog is still open)
      const left = r && r.ended && r.hands_left ? r.hands_left : null;
      setDialog({ round: n - 1, complete: sheet.complete, ended: r && r.ended, out, left });
    }
    setSeenRounds(n);
  }, [sheet && sheet.rounds.length]);
  // a new position puts the hint away, as it puts the chosen tile back (the version moves
  // with the game alone: others taking or giving up a seat keep both)
  useEffect(() => { setHint(null); }, [msg && msg.version]);
  // one move per position: a double click on Draw must not send a second, stale one
  const sentFor = useRef(null);
  // the move sent from this position, until the server's answer comes (the next position,
  // or a refusal): shown as on its way, nothing else to play meanwhile
  const [sent, setSent] = useState(null);
  useEffect(() => { if (error) { sentFor.current = null; setSent(null); } }, [error]);
  // back online, with the position the server sends on arrival: a move sent as the
  // connection dropped may never have arrived (the position is then the same one), so the
  // seat may move again; one that did arrive moved the position on
  useEffect(() => { if (synced) { sentFor.current = null; setSent(null); setStarting(false); } }, [synced]);
  useEffect(() => { if (error) setStarting(false); }, [error]);
  // the tab's title says when it is your turn (friends switch tabs while others play)
  const myTurn = Boolean(msg && msg.round && msg.you !== null && msg.round.current_seat === msg.you
    && !msg.round.ended);
  useEffect(() => {
    const here = `${t("web.table")} ${code} · ${t("game.name")}`;
    document.title = myTurn ? `${t("web.your_turn")} · ${here}` : here;
    return () => { document.title = t("game.name"); };
  }, [myTurn, LANG]);
  // "tell me when it is my turn": a notification when the turn comes while this tab is in
  // the background (the player is elsewhere while the others play)
  const [notify, setNotify] = useState(store.get("mextrain.notify") === "1"
    && CAN_NOTIFY && Notification.permission === "granted");
  const [notifyRefused, setNotifyRefused] = useState(false);
  const toggleNotify = async (on) => {
    setNotifyRefused(false);
    if (on && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") { setNotifyRefused(true); on = false; }
    }
    store.set("mextrain.notify", on ? "1" : "0");
    setNotify(on);
  };
  // once a turn (others coming and going do not count), taken away once the tab shows
  // again or the turn is played
  const note = useRef(null);
  const dropNote = () => { if (note.current) { note.current.close(); note.current = null; } };
  useEffect(() => {
    const seen = () => { if (!document.hidden) dropNote(); };
    document.addEventListener("visibilitychange", seen);
    return () => document.removeEventListener("visibilitychange", seen);
  }, []);
  useEffect(() => {
    if (!myTurn) { dropNote(); return; }
    if (!notify || !document.hidden || note.current) return;
    try {
      note.current = new Notification(t("web.your_turn"), { body: `${t("web.table")} ${code}`, tag: `mextrain-${code}` });
      note.current.onclick = () => { window.focus(); dropNote(); };
    } catch (err) {
      // a browser that notifies only from a service worker: the tab's title says it
    }
  }, [myTurn, notify]);
  // each move is told with whose turn it is now, in one message ("Bot 2: draws. Your
  // turn."): two, one after the other, were two announcements, the second cutting the
  // first short or lost behind it; a new round's deal (no move yet) tells whose turn it is
  const lastRound = useRef(null);
  const lastMoves = useRef(0);
  useEffect(() => {
    const r = msg && msg.round;
    if (!r) return;
    const hand = msg.you !== null ? r.hand : null;
    const last = r.history[r.history.length - 1];
    const before = lastHand.current;
    lastHand.current = hand;
    const roundBefore = lastRound.current;
    lastRound.current = r.round;
    const movesBefore = lastMoves.current;
    lastMoves.current = r.history.length;
    if (roundBefore === r.round && r.history.length < movesBefore) {
      // fewer moves in the same round: a move taken back (alone against bots), and the
      // bots' replies with it; said so, not as the move now last
      setSaid(`${t("web.undo.done")} ${turnWords(msg)}.`);
      if (refocus.current) {
        refocus.current = false;
        const tile = document.querySelector(".hand-tile");
        if (tile) tile.focus({ preventScroll: true });
      }
      return;
    }
    if (!last) {
      if (roundBefore !== null && roundBefore !== r.round) setSaid(`${turnWords(msg)}.`);
      return;
    }
    const drew = hand && before && last === `${msg.you}:draw` ? hand.filter((x) => !before.includes(x)) : [];
    const move = drew.length === 1 ? t("web.you_drew", { tile: tileSaid(drew[0]) })
      : moveWords(last, seatNames(msg.table.seats), undefined, r.trains, true);
    setSaid(t("web.move_turn", { move, turn: turnWords(msg) }));
    if (refocus.current) {
      const always = refocus.current === "hand";
      refocus.current = false;
      const active = document.activeElement;
      if (always || !active || active === document.body || active.disabled) {
        const tile = document.querySelector(".hand-tile");
        if (tile) tile.focus({ preventScroll: true });
      }
    }
  }, [msg && msg.version]);

  // the game starts while the waiting room is showing: said, with whose turn it is (the
  // table's turn line comes new with the table, too late to be heard), over any first move
  // made by then
  const status = msg && msg.table.status;
  const lastStatus = useRef(status);
  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = status;
    if (before !== "waiting" || status !== "playing" || !msg.round) return;
    setSaid(t("web.game_started", { turn: turnWords(msg) }));
  }, [status]);
  // the turn clock: its end on this machine's clock, from the seconds left the server said
  // as the state left it (two machines' clocks never agree), counted down a few times a second
  const clock = msg && msg.clock;
  const clockEnd = useMemo(() => (clock ? performance.now() + clock.left * 1000 : null), [msg]);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (clockEnd === null) return undefined;
    const timer = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, [clockEnd]);
  const secondsLeft = clockEnd === null ? null : Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000));
  // a screen reader hears it once, ten seconds before a bot moves for the player (in a
  // live region of its own: the last move is still told)
  const warned = useRef(null);
  const [clockSaid, setClockSaid] = useState("");
  const placed = useRef(null);  // where the live regions are: in the round's result or not
  useEffect(() => {
    if (myTurn && secondsLeft !== null && secondsLeft <= 10 && warned.current !== msg.version) {
      warned.current = msg.version;
      // emptied first, so that the same words after a draw are told again
      setClockSaid("");
      const words = tn("web.clock_soon", secondsLeft);
      setTimeout(() => setClockSaid(words), 100);
    }
    if (!myTurn) setClockSaid("");
  }, [secondsLeft, myTurn]);

  // a hint's words make the pinned hand taller: the chosen tile's trains come out from
  // under it again (on a phone it had covered one)
  const hintShown = Boolean(hint && msg && hint.version === msg.version);
  useEffect(() => { if (hintShown && selected) setTimeout(revealTargets, 0); }, [hintShown]);
  useEffect(showTrainEnds);
  // the keyboard is never dropped to the page by a new render: a control that had it and
  // is gone (Start, once the game starts; the talk's field, as the waiting room gives way
  // to the table; the last tile of the hand, played by a bot when the time ran out) hands
  // it on to its like at the table, else to the hand
  const hadFocus = useRef(null);
  useEffect(() => {
    const on = (e) => { hadFocus.current = e.target; };
    document.addEventListener("focusin", on);
    return () => document.removeEventListener("focusin", on);
  }, []);
  useEffect(() => {
    const gone = hadFocus.current;
    const active = document.activeElement;
    if (!gone || document.contains(gone) || (active && active !== document.body)) return;
    hadFocus.current = null;
    const tiles = document.querySelectorAll(".hand-tile");
    const like = gone.matches(".chat-say input") ? document.querySelector(".chat-say input")
      : gone.matches(".hand-tile") ? tiles[tiles.length - 1] : null;
    const to = like || tiles[0] || document.querySelector("main h1");
    if (!to) return;
    if (to.tagName === "H1") to.setAttribute("tabindex", "-1");
    to.focus({ preventScroll: true });
  });
  if (fatal === "no_table") return refusedPage(`${t("web.table")} ${code}`, t("web.error.no_table"));
  if (fatal === "bad_token") {
    return refusedPage(`${t("web.table")} ${code}`,
      html`${t("web.error.bad_token")} <a href=${`/t/${code}`}>${t("web.reload")}</a>`);
  }
  // still waiting for the table's first position: a refusal on the way (the database would
  // not read the table back, too many connections from here) is shown as at the table, in
  // the same live region, while the page goes on trying (it said only "Connecting…")
  // a seat link that took no seat: said where the page goes on (watching, or at this
  // browser's own seat)
  const linkNote = html`${linkRefused && html`<p class="error" role="alert">${t("web.error.bad_seat_link")}</p>`}${
    seatMoved && html`<p class="error" role="alert">${t("web.seat_link.moved")}</p>`}`;
  if (!msg) return html`<p>${t("web.connecting")}</p>${linkNote}${error && html`<${ErrorLine} error=${error} />`}`;
  const table = msg.table;
  const you = msg.you;
  const view = msg.round;
  const names = seatNames(table.seats);
  // whether a seat's player is connected: the others as the server last said, one's own
  // as this page's connection is (the server's word, from before the connection dropped,
  // showed the player online while the page was reconnecting)
  const connected = (seat) => (seat === you ? online : table.seats[seat].connected);
  // a seat this browser would not keep (its storage blocked, or full): the player is told,
  // under the seat's own buttons, that a reload loses it, as a screen reader is too
  const seatNote = you !== null
    && html`<${SeatNote} shown=${store.heldHere(tokenKey(code))} told=${notKeptTold} />`;
  // what a screen reader is told: the same two elements in the waiting room and at the
  // table (after the heading in both), so that a game's start is heard as it comes. While
  // the round's result is open they are inside it (a modal dialog makes the rest of the
  // page inert: no live region there is heard), as new elements: moved in, they keep
  // their words (the move that ended the round may not have been heard yet); moved back
  // out, they start empty (a region that comes with words may be read again).
  const inDialog = Boolean(dialog);
  if (!placed.current || placed.current.inDialog !== inDialog) {
    placed.current = { inDialog, said, clockSaid, moved: placed.current !== null && !inDialog };
  }
  const { moved } = placed.current;
  const saidTexts = moved && said === placed.current.said ? SILENT.texts : said.texts;
  const clockText = moved && clockSaid === placed.current.clockSaid ? "" : clockSaid;
  const clockRegion = html`<div class="sr-only clock-said" role="status" aria-live="polite">${clockText}</div>`;
  const saidRegion = saidTexts.map((words) => html`<div class="sr-only move-said" role="status"
    aria-live="polite">${words}</div>`);

  const joinTable = async (e) => {
    e.preventDefault();
    if (joining.current) return;
    joining.current = true;
    try {
      const res = await api(`/api/tables/${table.code}/join`, { name: joinName.trim() });
      store.set("mextrain.name", joinName.trim());
      if (store.set(tokenKey(res.code), res.token)) location.reload();
      else { joining.current = false; reconnect(); }
    } catch (err) {
      joining.current = false;
      setError({ message: err.message });
    }
  };
  const joinForm = html`<form onSubmit=${joinTable} class="inline join-form">
    <label>${t("web.your_name")} <input value=${joinName} maxlength="24"
      onInput=${(e) => { setJoinName(e.target.value); setError(null); }} /></label>
    <button class="primary" disabled=${!joinName.trim()}>${t("web.lobby.join_button")}</button></form>`;

  if (table.status === "waiting") {
    const link = `${location.origin}/t/${table.code}`;
    return html`<section class="waiting">
      <h1>${t("web.table")} <span class="code">${table.code}</span></h1>
      ${saidRegion}
      ${linkNote}
      <p>${t("web.share")} <a href=${link}>${link}</a> <button class="small" onClick=${() => copyLink(link)}>${t("web.copy_link")}</button>
        ${copied && html`<span class="muted" role="status">${t("web.copied")}</span>`}</p>
      <figure class="share-qr"><${QrCode} text=${link} label=${t("web.share_qr_label")} />
        <figcaption class="muted">${t("web.share_qr")}</figcaption></figure>
      <p class="muted">${t("web.table_rules", { rules: rulesName(table.rules, table.seats.length), rounds: tn("web.rounds_count", table.round_count) })}
        ${table.turn_time && html` ${t("web.table_clock", { time: clockWords(table.turn_time) })}`}
        ${paceWords(table) && html` ${paceWords(table)}`}</p>
      ${error && !CHAT_ERRORS.has(error.code) && html`<${ErrorLine} error=${error} />`}
      <ol class="seat-list">${table.seats.map((s, i) => html`<li>
        ${s.kind === "open" ? html`<em>${s.held ? t("web.seat.held", { name: iso(s.held) }) : t("web.seat.open")}</em>`
          : s.kind === "bot" && s.bot ? t("web.bot_name", { number: i + 1, level: t(`web.bot.${s.bot}`) })
          : html`<span class="who" title=${s.name}>${s.name}</span>`}
        ${s.kind === "human" && html` <span class=${connected(i) ? "dot on" : "dot"} role="img" aria-label=${connected(i) ? t("web.online") : t("web.offline")} title=${connected(i) ? t("web.online") : t("web.offline")}></span>`}
        ${i === you && html` <strong>(${t("web.you")})</strong>`}</li>`)}</ol>
      ${you !== null ? html`<button class="primary" disabled=${starting}
            onClick=${() => { if (send({ type: "start" })) setStarting(true); }}>${t("web.start")}</button>
          <p class="muted">${t("web.start_help")}</p>
          <p><button class="small" onClick=${leave}>${t("web.leave")}</button></p>
          <${SeatLinkBox} code=${table.code} send=${send} renewed=${renewed} />${seatNote}`
        : joinForm}
      <${TableTalk} chat=${chat} you=${you} me=${you !== null ? table.seats[you].name : null}
        send=${send} error=${error} setError=${setError} muted=${muted} setMuted=${setMuted}
        draft=${talkDraft} pending=${talkPending} box=${talkBoxes.waiting} />
    </section>`;
  }

  // a move on its way: this position's moves are spent (a slow connection shows the
  // position before it a while longer; the tile played waits in the hand, dimmed)
  const sending = sent && msg && sent.version === msg.version ? sent.move : null;
  // the position's moves, which its words tell of (the turn's prompt, the drawn tile's
  // and a chosen tile's notes: unchanged while a move is on its way, so not said again
  // when the answer leaves them as they were), and those that may be made now
  const moves = view ? view.legal_moves : [];
  const fits = new Set(moves.filter((m) => m.includes("@")).map((m) => m.split("@")[0]));
  const legal = sending ? [] : moves;
  const targetsFor = (tile) => legal.filter((m) => m.startsWith(tile + "@")).map((m) => m.split("@")[1]);
  const playableTiles = sending ? new Set() : fits;
  const targets = selected ? targetsFor(selected) : [];
  // the tile this seat has just drawn (the server says which: the hand comes in order,
  // where it was lost among the others), and what may be done with it, shown and said
  const drawnTile = myTurn && view && Number.isInteger(view.you_drew_at) ? view.hand[view.you_drew_at] ?? null : null;
  const drawnWords = (spoken) => {
    const drawn = spoken ? tileSaid(drawnTile) : drawnTile;
    if (fits.has(drawnTile)) return t("game.error_you.drawn_tile_only", { drawn });
    // (a house rule may have the seat draw again until a tile fits)
    if (moves.includes("draw")) return `${t("web.you_drew", { tile: drawn })}.`;
    return t("game.error_you.drawn_tile_fits_nowhere", { drawn });
  };
  // why a tile of the hand cannot be played now, where a rule keeps it off a train it
  // matches: the engine's words, from the server (shown, and ``said`` with the tiles in
  // words); none for a tile that matches no train
  const whyNot = (tile) => (view && view.why_not || []).find((w) => view.hand[w.at] === tile) || null;
  // the chosen tile that cannot be played: why, for all to see (after a draw, the drawn
  // tile's line says it, unless the rule is another)
  const stuck = selected && !fits.has(selected) ? whyNot(selected) : null;
  const stuckNote = !selected || fits.has(selected) ? null
    : stuck ? (drawnTile && stuck.message === drawnWords(false) ? null : stuck.message)
    : drawnTile ? null : t("web.no_train_for", { tile: selected });
  // what the turn asks beyond "Your turn", as the server says the round stands (a double
  // owed its follow-up, the first-turn run, the oldest open double to answer first) and
  // the legal moves allow; after a draw the drawn tile's line says what is left to do
  const turnPrompt = (() => {
    if (!myTurn || !view) return "";
    const plays = moves.some((m) => m.includes("@"));
    if (view.owes_follow_up) {
      return plays ? t("web.prompt.follow_up") : moves.includes("draw") ? t("web.prompt.follow_up_draw") : "";
    }
    if (view.first_turn_run && plays && moves.includes("pass")) return t("web.prompt.run_more");
    if (view.first_turn_run && moves.some((m) => m.endsWith(`@${you}`))) return t("web.prompt.run_start");
    if (view.answer_first !== undefined) {
      const owner = view.answer_first;
      return t("web.prompt.answer_first", { train: owner === "M" ? t("game.train.mexican_the")
        : owner === you ? t("game.train.own") : t("game.train.of", { name: iso(names[owner]) }) });
    }
    if (drawnTile || plays) return "";
    if (moves.includes("draw")) return t("web.prompt.must_draw");
    return moves.includes("pass") ? t("web.prompt.must_pass") : "";
  })();
  // the trains Tab stops on: those the chosen tile may go on, or with none chosen, those
  // a tile of the hand may go on (the others are still read, and clicked, as before)
  const stops = selected ? targets : legal.filter((m) => m.includes("@")).map((m) => m.split("@")[1]);
  const move = (m) => {
    // (nothing goes while the connection is down, nor before the position from before the
    // drop is replaced: the move is still to make, not "sent")
    if (!synced || sentFor.current === msg.version) return;
    if (send({ type: "action", move: m, version: msg.version })) {
      sentFor.current = msg.version;
      setSent({ version: msg.version, move: m });
      setSelected(null);  // (a tile dropped on its train was chosen as it was dragged)
      setTimeUp(null);
    }
  };
  const playOn = (train) => {
    if (selected && targets.includes(train)) { move(`${selected}@${train}`); setSelected(null); }
  };
  const chooseTile = (tile) => {
    if (sending) return;  // (nothing to choose a tile for until the answer comes)
    if (!playableTiles.has(tile)) {
      setSelected(selected === tile ? null : tile);
      // why: the rule that keeps it off a train it matches (after a draw, only the drawn
      // tile may be played, or nothing but a pass), else that it matches no train
      const why = whyNot(tile);
      if (selected !== tile) {
        setSaid(why ? why.said : drawnTile ? drawnWords(true) : t("web.no_train_for", { tile: tileSaid(tile) }));
      }
      return;
    }
    const ts = targetsFor(tile);
    if (selected === tile && ts.length === 1) { move(`${tile}@${ts[0]}`); setSelected(null); return; }
    setSelected(selected === tile ? null : tile);
    // the keyboard goes on to the trains it may go on (Tab on, Escape back), and they
    // come into sight above the hand
    if (selected !== tile) setTimeout(() => {
      revealTargets();
      const train = document.querySelector(".train.target");
      if (train) train.focus({ preventScroll: true });
    }, 0);
  };
  // drag and drop with pointer events (mouse, pen and touch alike); the window listeners
  // are installed once at the top of this component and read `live`
  const onPointerDown = (tile, e) => {
    if (!playableTiles.has(tile)) return;
    drag.current = { tile, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
  };
  live.current = { legal, move, send, you, myTurn, sending, version: msg.version, dialogOpen: Boolean(dialog), canUndo: msg.can_undo === true };
  // (``start``: the label begins a sentence, its own first word a capital, never a name)
  const trainLabel = (owner, start = false) => (start ? tcap : t)(
    owner === "M" ? "game.train.mexican" : "game.train.of", { name: names[owner] });
  const turnName = view ? names[view.current_seat] : "";
  // a move in words, as shown ("9-5 on your train") or as said (``spoken``: "tile 9 and 5
  // ..."), its tile as it would lie on the train it names, the matching end first ("2-12"
  // in the hand is "12-2" onto a 12), as the last moves write it once it is played
  const moveText = (m, spoken) => {
    if (m === "draw") return t("game.hint.draw");
    if (m === "pass") return t("game.hint.pass");
    const [tile, where] = m.split("@");
    const train = view && view.trains.find((tr) => String(tr.owner) === where);
    const laid = train ? laidOnto(tile, train.open_end) : tile;
    return t("web.hint.play", { tile: spoken ? tileSaid(laid) : laid, train: trainWords(where, you, names, true) });
  };
  // a hint is for the position it was asked in, never a later one
  const hintNow = hint && hint.version === msg.version ? hint : null;
  const hintText = (spoken) => t("web.hint.says", { move: typeof hintNow.win_probability === "number"
    ? t("web.hint.chance", { move: moveText(hintNow.move, spoken), chance: pct(hintNow.win_probability) })
    : moveText(hintNow.move, spoken) });
  const others = hintNow ? (hintNow.moves || []).slice(1, 4).filter((h) => typeof h.win_probability === "number") : [];
  const close = hintNow && closeCall(hintNow);
  const hintMore = (spoken) => ` · ${t("web.hint.also", { moves: others.map((h) => t("web.hint.short",
    { move: moveText(h.move, spoken), chance: pct(h.win_probability) })).join(", ") })}${
    close ? ` (${t("web.hint.close")})` : ""}`;

  // the status line: a lost connection is told to a screen reader as it comes (in a live
  // region of its own), and whose turn it is with each move (in the moves' regions); the
  // round, the engine and the boneyard's count are there to read (re-read after every
  // draw, they drowned the moves)
  return html`<section class="table-page">
    <h1 class="sr-only">${t("web.table")} ${table.code}</h1>
    ${!dialog && saidRegion}
    ${!dialog && clockRegion}
    <div class="status">
      <span>${t("game.round")} ${view ? view.round + 1 : "-"} / ${table.round_count}</span>
      ${view && html`<span class="engine-info">${cap(t("game.engine"))} <${Tile} tile=${`${view.engine}-${view.engine}`} big=${big} /></span>`}
      <span>${t("web.boneyard_count", { count: view ? view.boneyard_size : "-" })}</span>
      <span class=${myTurn ? "turn mine" : "turn"}>${msg.sheet.complete ? t("web.match_over") : view && view.ended ? t("web.round_over")
        : myTurn ? t("web.your_turn") : t("web.turn_of", { name: turnName })}</span>
      ${secondsLeft !== null && html`<span class=${"clock" + (secondsLeft <= 10 ? " low" : "") + (clock.seat === you ? " mine" : "")}
        title=${t("web.clock_title")} aria-hidden="true"><svg class="clock-icon" viewBox="0 0 16 16"><circle cx="8" cy="8.5" r="6"
          /><path d="M8 5v3.5l2.5 1.5M6 1h4" /></svg>${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, "0")}</span>`}
      ${you === null && html`<span class="badge">${t("web.spectating")}</span>`}
      <span role="status">${!online && html`<span class="badge warn">${t("web.reconnecting")}</span>`}</span>
    </div>
    ${linkNote}
    ${error && !CHAT_ERRORS.has(error.code) && html`<${ErrorLine} error=${error} />`}
    ${you !== null && table.status === "playing" && table.seats[you].timed_out ? html`<div class="notice away" role="status">${t("web.away.text")}
        <button class="primary small" onClick=${() => { send({ type: "back" }); setTimeUp(null); }}>${t("web.away.back")}</button></div>`
      : timeUp !== null && you !== null && html`<p class="notice" role="status">${t("web.time_up")}</p>`}
    ${you === null && table.status === "playing" && table.seats.some((s) => s.joinable) && html`<div class="late-join">
      <p>${t("web.late_join", { name: names[table.seats.findIndex((s) => s.joinable)] })}</p>${joinForm}</div>`}
    <div class="toast-spot">${toast && html`<button class="chat-toast" ref=${toastBox} onClick=${(e) => {
        // a click or a key goes to the talk's field, ready for an answer; a tap only shows
        // the talk, its heading taking the focus: the field would open the on-screen
        // keyboard over the page for a player who only wanted to read (a browser that
        // says nothing of the pointer: a touch screen is tapped)
        const how = e.pointerType;
        const tapped = how === "touch" || how === "pen"
          || (how === undefined && window.matchMedia("(pointer: coarse)").matches);
        const field = document.querySelector(".chat-say input");
        if (tapped && document.querySelector(".chat h2")) showTalk();
        else {
          const talk = field || document.querySelector(".chat");
          if (talk) { talk.scrollIntoView({ block: "center" }); talk.focus({ preventScroll: true }); }
        }
        setToast(null);
      }}><span class="chat-toast-words">${chatWords(toast)}</span></button>`}</div>
    <div class=${table.seats.length > 8 ? "layout many crowded" : table.seats.length > 4 ? "layout many" : "layout"}>
      <div class="board" role="region" aria-label=${t("web.board")}>
        <div class="hub"><${Tile} tile=${view ? `${view.engine}-${view.engine}` : "0-0"} big=${big} vertical=${true}
          label=${view ? sentences(cap(t("game.engine")), tileLabel(`${view.engine}-${view.engine}`)) : cap(t("game.engine"))} /></div>
        <div class="trains">
        ${view && view.trains.map((tr) => {
          const key = String(tr.owner);
          const isTarget = targets.includes(key);
          const seatInfo = tr.owner === "M" ? null : table.seats[tr.owner];
          const doubled = doubleClass(tr.owner, view.open_doubles, table.open_doubles_block, Boolean(view.ended));
          const cls = ["train", isTarget ? "target" : "", doubled,
            tr.owner === "M" ? "mexican" : "", tr.owner === view.current_seat && !view.ended ? "current" : "",
            tr.owner === you ? "own" : ""].join(" ");
          const who = tr.owner === you ? tcap("game.train.own") : trainLabel(tr.owner, true);
          const label = sentences(who +
            (seatInfo && seatInfo.kind === "bot" && seatInfo.bot ? ` (${t(`web.bot.${seatInfo.bot}`)})` : "") +
            // (one's own train says so only while the page is offline)
            (seatInfo && seatInfo.kind === "human" && (tr.owner !== you || !online)
              ? `, ${connected(tr.owner) ? t("web.online") : t("web.offline")}` : "") +
            (seatInfo && seatInfo.bot_playing ? `, ${t("web.bot_playing")}` : ""),
            tn("web.train_tiles", tr.tiles.length), tcap("web.open_end", { pip: tr.open_end }),
            seatInfo && tn("web.hand_count", view.hand_sizes[tr.owner]),
            tr.marker && tcap("web.marker_up"), tr.open_double && cap(openDoubleWords(view.ended)),
            doubled === "open-double" && tcap("web.double_first"),
            isTarget && tcap("web.play_here"));
          return html`<button class=${cls} data-train=${key} aria-label=${label}
              aria-disabled=${!isTarget} tabindex=${stops.includes(key) ? null : -1} onClick=${(e) => {
                // played from the keyboard (Enter on the train): the keyboard goes back
                // to the hand, where the next move starts
                if (e.detail === 0 && selected && targets.includes(key)) refocus.current = "hand";
                playOn(key);
              }}>
            <span class="train-owner">
              ${tr.owner === "M" ? html`<span class="mex-icon" aria-hidden="true">M</span> ${cap(t("game.train.mexican"))}`
                : seatInfo.kind === "bot" && seatInfo.bot ? html`${names[tr.owner]}
                  <span class="level">${t(`web.bot.${seatInfo.bot}`)}</span>`
                : html`<span class="who" title=${names[tr.owner]}>${names[tr.owner]}</span>`}
              ${seatInfo && seatInfo.kind === "human" && html`<span class=${connected(tr.owner) ? "dot on" : "dot"}
                title=${connected(tr.owner) ? t("web.online") : t("web.offline")} aria-hidden="true"></span>`}
              ${tr.marker && html`<span class="marker" title=${t("game.marker")} aria-hidden="true">⚑</span>`}
              ${tr.open_double && html`<span class="open-double-mark" title=${openDoubleWords(view.ended)} aria-hidden="true">‼</span>`}
              ${seatInfo && html`<span class="hand-size" title=${t("web.tiles_in_hand")}>${view.hand_sizes[tr.owner]}</span>`}
              ${seatInfo && view.hand_sizes[tr.owner] === 1 && html`<span class="badge warn">${t("game.last_tile")}</span>`}
              ${seatInfo && seatInfo.bot_playing && html`<span class="badge">${t("web.bot_playing")}</span>`}
            </span>
            <span class="train-tiles">
              ${tr.tiles.map((tile) => html`<${Tile} tile=${tile} big=${big} />`)}
              <span class="open-end" aria-hidden="true">${tr.open_end}</span>
            </span>
          </button>`;
        })}
        </div>
      </div>
      ${you !== null && view && html`<div class="hand-area">
        <p class="turn-prompt" role="status" aria-live="polite">${dialog || !promptFree ? "" : turnPrompt}</p>
        <div class="actions">
          <button onClick=${() => { refocus.current = true; move("draw"); }} disabled=${!legal.includes("draw")} aria-keyshortcuts="d">${t("game.draw")}</button>
          <button onClick=${() => { refocus.current = true; move("pass"); }} disabled=${!legal.includes("pass")} aria-keyshortcuts="p">${t("game.pass")}</button>
          <button onClick=${() => send({ type: "hint", version: msg.version })} disabled=${!myTurn || Boolean(sending)} aria-keyshortcuts="h">${t("web.hint")}</button>
          ${msg.can_undo !== null && msg.can_undo !== undefined && html`<button class="undo" title=${t("web.undo.title")}
            onClick=${() => { refocus.current = "hand"; send({ type: "undo", version: msg.version }); }}
            aria-label=${t("web.undo")} disabled=${!msg.can_undo || Boolean(sending)} aria-keyshortcuts="u"><svg
            class="undo-icon" viewBox="0 0 20 20" aria-hidden="true"><path d="M7.5 4.5 4 8l3.5 3.5M4 8h8a4 4 0 0 1 0 8H9" /></svg><span
            class="undo-word">${t("web.undo")}</span></button>`}
          <button class="talk-jump" title=${t("web.chat.title")} onClick=${() => { showTalk(); readTalk(); }}
            aria-label=${unreadCount ? tn("web.chat.unread", unreadCount) : t("web.chat.title")}>
            <svg class="talk-icon" viewBox="0 0 20 20" aria-hidden="true"><path
              d="M3 4.5h14v9H8.5L5 16.5v-3H3z" /></svg>${unreadCount > 0 && html`<span class="unread"
              aria-hidden="true">${unreadCount}</span>`}</button>
          <span class="hint" role="status">${hintNow && html`${shownSaid(hintText(false), hintText(true))}${
            others.length ? html`<span class="hint-more">${shownSaid(hintMore(false), hintMore(true))}</span>` : ""}`}</span>
          ${drawnTile && html`<span class="tile-note drawn-note" aria-hidden="true">${drawnWords(false)}</span>`}
          ${stuckNote && html`<span class="tile-note" aria-hidden="true">${stuckNote}</span>`}
        </div>
        <div class="hand" role="group" aria-label=${t("web.your_hand")} aria-busy=${Boolean(sending)}>
          ${view.hand.map((tile) => {
            const playable = playableTiles.has(tile);
            const hinted = hintNow && hintNow.move.startsWith(tile + "@");
            const going = Boolean(sending) && sending.startsWith(tile + "@");
            return html`<button class=${"hand-tile" + (playable ? " playable" : "") + (selected === tile ? " selected" : "") + (hinted ? " hinted" : "")
                + (tile === drawnTile ? " drawn" : "") + (going ? " sending" : "")}
                data-tile=${tile} aria-pressed=${selected === tile} aria-disabled=${going ? "true" : null}
                aria-label=${sentences(tileLabel(tile), playable && tcap("web.playable"))}
                onPointerDown=${(e) => onPointerDown(tile, e)}
                onClick=${() => chooseTile(tile)}>
              <${Tile} tile=${tile} big=${big} vertical=${true} /></button>`;
          })}
        </div>
      </div>`}
      <aside class="side">
        <${ScoreSheet} sheet=${msg.sheet} names=${names} now=${view ? view.round : null} />
        ${view && html`<${MoveLog} history=${view.history} names=${names} movers=${view.movers} trains=${view.trains} />`}
        <${TableTalk} chat=${chat} you=${you} me=${you !== null ? table.seats[you].name : null}
        send=${send} error=${error} setError=${setError} muted=${muted} setMuted=${setMuted}
        draft=${talkDraft} pending=${talkPending} box=${talkBoxes.table} />
      </aside>
    </div>
    ${dragging && html`<div class="drag-ghost" aria-hidden="true" style=${`left:${dragging.x}px;top:${dragging.y}px`}>
      <${Tile} tile=${dragging.tile} big=${big} /></div>`}
    <p class="table-rules muted">${t("web.help.this_table", { rules: rulesName(table.rules, table.seats.length) })}${" "}${
      table.turn_time ? `${t("web.table_clock", { time: clockWords(table.turn_time) })} ` : ""}${
      paceWords(table) ? `${paceWords(table)} ` : ""}<a href=${`/help?table=${code}#rule-sets`} target="_blank" rel="noopener">${t("web.help.title")}${newTab()}</a></p>
    ${you !== null && table.status === "playing" && CAN_NOTIFY && html`<p class="notify">
      <label class="check"><input type="checkbox" checked=${notify}
        onChange=${(e) => toggleNotify(e.target.checked)} /> ${t("web.notify")}</label>
      ${notifyRefused && html` <span class="muted" role="status">${t("web.notify_refused")}</span>`}</p>`}
    ${you !== null && table.status === "playing" && html`<p class="leave">
      <button class="small" onClick=${leave}>${t("web.leave")}</button></p>
      <${SeatLinkBox} code=${table.code} send=${send} renewed=${renewed} />`}
    ${seatNote}
    <${ResultBar} table=${table} sheet=${msg.sheet} names=${names} />
    <${AgainBar} table=${table} you=${you} send=${send} />
    ${dialog && html`<${EndDialog} dialog=${dialog} sheet=${msg.sheet} names=${names} table=${table} big=${big}
      you=${you} send=${send} onClose=${() => setDialog(null)} live=${[saidRegion, clockRegion]} />`}
  </section>`;
}

// Whose turn it is, as a screen reader is told it after a move ("Your turn", "Bot 2's
// turn", the name set apart), or that the round or the game is over.
function turnWords(msg) {
  const r = msg.round;
  if (msg.sheet.complete) return t("web.match_over");
  if (r.ended) return t("web.round_over");
  if (msg.you !== null && r.current_seat === msg.you) return t("web.your_turn");
  return t("web.turn_of", { name: iso(seatNames(msg.table.seats)[r.current_seat]) });
}

// The round's last moves, newest first: what the others did while you waited.
const LOG_LENGTH = 8;

// A recorded action ("2:5-9@M", "1:draw") in the player's words: "Cy: 9-5 on the
// Mexican train", "Ben: draws" (``mover``: who made it, if not the seat's holder now;
// ``trains``: the trains after it, where the tile is written as it lies, "9-5" laid on a 9;
// ``spoken``: the tile in words, for a screen reader, "Cy: tile 9 and 5 on ...").
function moveWords(text, names, mover, trains, spoken = false) {
  const [seatText, action] = text.split(":");
  const seat = Number(seatText);
  const who = iso(mover === undefined ? names[seat] : mover);
  if (action === "draw") return t("web.log.draw", { who });
  if (action === "pass") return t("web.log.pass", { who });
  const [tile, where] = action.split("@");
  const laid = laidTile(tile, trains);
  return t("web.log.play", { who, tile: spoken ? tileSaid(laid) : laid,
    train: trainWords(where, seat, names) });
}

// A tile ("5-9") as it lies on the trains ("9-5"), as they show it; as given if it is not there.
function laidTile(tile, trains) {
  const [a, b] = parseTile(tile);
  for (const train of trains || []) {
    const found = train.tiles.find((x) => {
      const [c, d] = parseTile(x);
      return (c === a && d === b) || (c === b && d === a);
    });
    if (found) return found;
  }
  return tile;
}

// Where a tile goes, in words: "the Mexican train", "Ben's train", or the mover's own
// ("their own train" in a log, ``yours``: "your train" in a hint, to its reader). Words
// for where it goes, not for a train's name: Finnish says "Meksikon junaan", "omaan
// junaasi" ("into ..."; its "5-9 → Meksikon juna" was read "5-9 right arrow ...").
function trainWords(where, seat, names, yours = false) {
  if (where === "M") return t("web.to_train.mexican");
  const owner = Number(where);
  if (owner !== seat) return t("web.to_train.of", { name: iso(names[owner]) });
  return yours ? t("web.to_train.yours") : t("web.to_train.theirs");
}

function MoveLog({ history, names, movers, trains }) {
  const moves = history.slice(-LOG_LENGTH).reverse();
  // each move by whoever held the seat then (a person who left since, a bot a late
  // joiner took over), as the server says (`movers`: a name, or null for a bot's seat)
  const who = (i) => {
    const index = history.length - 1 - i;
    if (!movers || movers.length !== history.length) return undefined;
    const seat = Number(history[index].split(":")[0]);
    return movers[index] ?? t("web.bot_short", { number: seat + 1 });
  };
  return html`<section class="move-log" aria-label=${t("web.log.title")}>
    <h2>${t("web.log.title")}</h2>
    ${moves.length ? html`<ol>${moves.map((m, i) => html`<li key=${history.length - i}
      class=${i === 0 ? "newest" : ""}>${shownSaid(moveWords(m, names, who(i), trains),
        moveWords(m, names, who(i), trains, true))}</li>`)}</ol>`
      : html`<p class="muted">${t("web.log.none")}</p>`}
  </section>`;
}

// Table talk: free words or stock phrases, which each reader sees in their own language.
const CHAT_KEPT = 50;
const CHAT_PHRASES = ["hello", "good_luck", "your_turn", "nice_move", "oops", "thanks", "good_game"];
// refusals of the talk: shown by its field, not over the board
const CHAT_ERRORS = new Set(["chat_text", "chat_rate", "spectator_talk"]);

// "Ana: Good luck!": a stock phrase in the reader's language, a player's words as written
function chatWords(line) {
  const text = line.phrase ? t(`web.chat.phrase.${line.phrase}`) : line.text;
  return t("web.chat.said", { name: iso(line.name), text });
}

// Whether at least half of ``el`` is in the window (or it fills half the window, a box
// taller than that: the talk on a small phone), told to ``seen`` as it changes; the
// observer, for its user to disconnect.
function watchInSight(el, seen) {
  const watch = new IntersectionObserver(([entry]) => seen(entry.intersectionRatio >= 0.5
    || entry.intersectionRect.height >= window.innerHeight / 2), { threshold: [0, 0.5, 1] });
  watch.observe(el);
  return watch;
}

// The talk brought into sight, its heading taking the focus: not its field, which would
// open a phone's on-screen keyboard over the page for a player who only wanted to read.
function showTalk() {
  const heading = document.querySelector(".chat h2");
  if (!heading) return;
  heading.closest(".chat").scrollIntoView({ block: "center" });
  heading.focus({ preventScroll: true });
}

function chatTime(at) {
  return new Date(at * 1000).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });
}

// How far this browser's seat at a table has had its talk in sight ({seat, line}, see
// talkSeenKey), or null: none of it.
function readTalkSeen(code) {
  try {
    const kept = JSON.parse(store.get(talkSeenKey(code)) || "null");
    return kept && Number.isInteger(kept.seat) && Number.isInteger(kept.line) ? kept : null;
  } catch { return null; }
}

// Whom this reader has muted at a table (a set of names, kept in this browser), and a
// function to mute or hear one again.
function useMuted(code) {
  const [muted, setAll] = useState(() => {
    try {
      const names = JSON.parse(store.get(muteKey(code)) || "[]");
      return new Set(Array.isArray(names) ? names.filter((n) => typeof n === "string") : []);
    } catch { return new Set(); }
  });
  const setMuted = (name, on) => setAll((now) => {
    const next = new Set(now);
    if (on) next.add(name); else next.delete(name);
    if (next.size) store.set(muteKey(code), JSON.stringify([...next]));
    else store.remove(muteKey(code));
    return next;
  });
  return [muted, setMuted];
}

// What the server makes plain in a line said at the table (`messages._PLAIN`, kept the
// same by a test): these become spaces, those go; then its ends are trimmed.
const PLAIN_SPACES = /[\t\u00a0\u2007\u202f]/g;
const PLAIN_GONE = /[\u00ad\u200e\u200f]/g;
const plainLine = (text) => text.replace(PLAIN_SPACES, " ").replace(PLAIN_GONE, "").trim();

function TableTalk({ chat, you, me, send, error, setError, muted, setMuted, draft, pending, box = null }) {
  // what is typed (the page's: it goes on from the waiting room to the table), and the
  // words sent: the field is emptied when they come back said (as the server made them
  // plain: "Bravo !" with a no-break space comes back with a plain one), and keeps them
  // if they were refused (talking too fast) or the connection dropped
  const [text, setText] = draft;
  const list = useRef(null);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    const last = chat[chat.length - 1];
    if (last && pending.current !== null && last.seat === you && last.text === plainLine(pending.current)) {
      const said = pending.current;
      pending.current = null;
      // (what was typed meanwhile stays)
      setText((now) => (now.trim() === said ? "" : now));
    }
  }, [chat]);
  const submit = (e) => {
    e.preventDefault();
    const said = text.trim();
    if (!said) return;
    pending.current = said;
    send({ type: "chat", text: said });
  };
  // the reader's own lines are always shown; the others' unless the reader muted them
  const mine = (line) => line.seat === you && line.name === me;
  const talkers = [...new Set(chat.filter((line) => !mine(line)).map((line) => line.name))];
  const shown = chat.filter((line) => mine(line) || !muted.has(line.name));
  const hidden = chat.length - shown.length;
  return html`<section class="chat" aria-labelledby="chat-title" ref=${box}>
    <h2 id="chat-title" tabindex="-1">${t("web.chat.title")}</h2>
    <ol class="chat-lines" role="log" aria-live="polite" ref=${list}>
      ${shown.map((line) => html`<li key=${line.id} data-seat=${line.seat}>
        <span class="chat-time">${chatTime(line.at)}</span> ${chatWords(line)}</li>`)}
    </ol>
    ${!chat.length && html`<p class="muted">${t("web.chat.none")}</p>`}
    ${hidden > 0 && html`<p class="muted chat-hidden">${tn("web.chat.hidden", hidden)}</p>`}
    ${talkers.length > 0 && html`<details class="chat-mute">
      <summary>${t("web.chat.mute")}</summary>
      ${talkers.map((name) => html`<label class="check"><input type="checkbox" checked=${muted.has(name)}
        onChange=${(e) => setMuted(name, e.target.checked)} /> ${iso(name)}</label>`)}
    </details>`}
    ${you !== null ? html`<form class="chat-say" onSubmit=${submit}>
        <input value=${text} maxlength="200" aria-label=${t("web.chat.say")} placeholder=${t("web.chat.say")}
          onInput=${(e) => { setText(e.target.value); if (error && CHAT_ERRORS.has(error.code)) setError(null); }} />
        <button disabled=${!text.trim()}>${t("web.chat.send")}</button>
      </form>
      ${error && CHAT_ERRORS.has(error.code) && html`<${ErrorLine} error=${error} />`}
      <div class="chat-phrases" role="group" aria-label=${t("web.chat.phrases")}>
        ${CHAT_PHRASES.map((p) => html`<button type="button" class="small" data-phrase=${p}
          onClick=${() => send({ type: "chat", phrase: p })}>${t(`web.chat.phrase.${p}`)}</button>`)}
      </div>`
      : html`<p class="muted">${t("web.chat.seated_only")}</p>`}
  </section>`;
}

// A score of the sheet that is more than the pips left (``note``: what the rules added,
// as `extraNote` says it): a mark beside it, the words on hover, and said after the score
// to a screen reader ("62 (+50: double blank)"), as the round's result shows them.
function extraMark(note) {
  if (!note) return null;
  return html`<sup class="extra-mark" title=${note} aria-hidden="true">*</sup><span class="sr-only"> (${note})</span>`;
}

// ``now``: the round on the table, whose row is marked (during the pause after a round,
// the round just over: the next engine's row is marked once its round is dealt); by
// default the first round not played
function ScoreSheet({ sheet, names, now = null }) {
  const played = sheet.rounds.length;
  const current = now ?? played;
  // four seats or more: on a phone the names stand upright so that every column fits
  // (four names of 7rem, "Robot 4" in French, ran past a phone's 390 pixels); three share
  // what the phone's width leaves them (three names of 7rem ran past it too)
  const seats = names.length > 3 ? "sheet many" : names.length === 3 ? "sheet three" : "sheet";
  // a * is explained on hover only, which a touch screen never does: once the sheet has
  // one, a line under it says what it means (a screen reader has the words in each cell)
  const marked = sheet.rounds.some((_, k) => names.some((_, s) => extraNote(((sheet.extra || [])[k] || [])[s])));
  return html`<div class="sheet-box"><table class=${seats} aria-label=${t("web.score_sheet")}>
    <caption>${t("web.score_sheet")}</caption>
    <thead><tr><th scope="col">${cap(t("game.engine"))}</th>${names.map((n) => html`<th scope="col" title=${n}>${n}</th>`)}</tr></thead>
    <tbody>${sheet.engines.map((e, k) => html`<tr class=${k === current && !sheet.complete ? "now" : ""}>
      <th scope="row">${shownSaid(`${e}-${e}`, tileLabel(`${e}-${e}`))}</th>
      ${names.map((_, s) => html`<td>${k < played ? sheet.rounds[k][s] : ""}${k < played
        && extraMark(extraNote(((sheet.extra || [])[k] || [])[s]))}</td>`)}</tr>`)}</tbody>
    <tfoot><tr><th scope="row">${t("game.total")}</th>
      ${names.map((_, s) => html`<td class=${(sheet.winners || []).includes(s) ? "winner" : ""}>${sheet.totals[s] ?? 0}</td>`)}</tr></tfoot>
  </table>${marked && html`<p class="sheet-note" aria-hidden="true">* ${t("web.score_extra.note")}</p>`}</div>`;
}

// Play again: the first seated player to ask opens a new table (same rules, same bots);
// the others join it. A seat that already has the new table's token just goes there.
function playAgain(table, send) {
  if (table.next && store.get(tokenKey(table.next))) go(`/t/${table.next}`);
  else send({ type: "rematch" });
}

// A finished game's winners, then its record and replay (when the game is stored).
function GameResult({ table, sheet, names }) {
  // the seats a bot finished the game for, their people having left: not their result
  const gone = names.map((n, s) => (table.seats[s] && table.seats[s].left ? `${iso(n)} (${t("web.stats.left_mark")})` : ""))
    .filter(Boolean);
  return html`<p class="winners">${winnersLine((sheet.winners || []).map((s) => names[s]))}</p>
    ${gone.length > 0 && html`<p class="left-note">${gone.join(", ")}</p>`}
    ${table.game_id && html`<p class="result-links"><a href=${`/api/games/${table.game_id}/record`} download>${t("web.download_record")}</a>${" · "}<a
      href=${`/replay/${table.game_id}`} onClick=${(e) => { e.preventDefault(); go(`/replay/${table.game_id}`); }}>${t("web.replay")}</a></p>`}`;
}

// The game's result under a finished table: the end dialog shows it once, this stays
// (after a reload, for a spectator arriving late).
function ResultBar({ table, sheet, names }) {
  if (table.status !== "finished" || !sheet.complete) return null;
  return html`<div class="result"><${GameResult} table=${table} sheet=${sheet} names=${names} /></div>`;
}

function AgainBar({ table, you, send }) {
  if (table.status !== "finished") return null;
  if (you === null) {
    return table.next ? html`<p class="again"><a href=${`/t/${table.next}`}
      onClick=${(e) => { e.preventDefault(); go(`/t/${table.next}`); }}>${t("web.again.watch")}</a></p>` : null;
  }
  return html`<div class="again"><p>${table.next ? t("web.again.started") : t("web.again.ask")}</p>
    <button class="primary" onClick=${() => playAgain(table, send)}>
      ${table.next ? t("web.again.join") : t("web.again.button")}</button></div>`;
}

function EndDialog({ dialog, sheet, names, table, you, send, onClose, big, live }) {
  const heading = useRef(null);
  const box = useRef(null);
  // opened as a modal before the page is painted: it is never seen unless it keeps the
  // keyboard
  useLayoutEffect(() => {
    const before = document.activeElement;
    const d = box.current;
    if (d && !d.open && d.showModal) d.showModal();
    // the keyboard goes to the result's heading, not to Continue: a space or Enter typed
    // for something else (a line of table talk) must not close it unread; Tab reaches
    // the buttons, Esc closes it
    heading.current && heading.current.focus();
    return () => {
      if (d && d.open) d.close();
      const back = before && before !== document.body && document.contains(before) && !before.disabled
        ? before : document.querySelector(".hand-tile") || document.querySelector("main h1");
      if (back) back.focus({ preventScroll: true });
    };
  }, []);
  const scores = sheet.rounds[dialog.round] || [];
  const extras = (sheet.extra || [])[dialog.round] || [];
  const complete = sheet.complete;
  // Tab goes round the dialog's buttons and links (a modal dialog would let it out to
  // the browser's own controls past the last one)
  const cycle = (e) => {
    if (e.key !== "Tab" || !box.current) return;
    const items = [...box.current.querySelectorAll("button, a[href]")].filter((x) => !x.disabled);
    if (!items.length) return;
    const [first, last] = [items[0], items[items.length - 1]];
    const at = document.activeElement;
    if (!items.includes(at)) { e.preventDefault(); (e.shiftKey ? last : first).focus(); }
    else if (!e.shiftKey && at === last) { e.preventDefault(); first.focus(); }
    else if (e.shiftKey && at === first) { e.preventDefault(); last.focus(); }
  };
  return html`<dialog ref=${box} class="overlay" aria-labelledby="end-title" onKeyDown=${cycle}
      onCancel=${(e) => { e.preventDefault(); onClose(); }}>
    <div class="dialog">
      ${live}
      <h2 id="end-title" ref=${heading} tabindex="-1">${complete ? t("web.match_over") : t("web.round_end", { number: dialog.round + 1 })}</h2>
      ${dialog.ended && html`<p class="how-ended">${dialog.ended === "out" && dialog.out >= 0
        ? tcap("game.ended.out", { who: names[dialog.out] }) : tcap("game.ended.blocked")}.</p>`}
      <table class="sheet small"><thead><tr><th scope="col">${t("web.stats.player")}</th>
        <th scope="col">${cap(t("game.round"))} ${dialog.round + 1}</th><th scope="col">${cap(t("game.total"))}</th>
        ${dialog.left && html`<th scope="col" class="left-col">${t("web.tiles_left")}</th>`}</tr></thead>
        <tbody>${names.map((n, s) => html`<tr><th scope="row"><span class="who" title=${n}>${n}</span></th>
        <td>${scores[s]}${extraNote(extras[s]) && html` <span class="score-extra">${extraNote(extras[s])}</span>`}</td>
        <td>${sheet.totals[s]}</td>
        ${dialog.left && html`<td class="left-tiles">${dialog.left[s].length
          ? dialog.left[s].map((x) => html`<${Tile} tile=${x} big=${big} />`) : t("web.tiles_left_none")}</td>`}</tr>`)}</tbody></table>
      ${complete && html`<${GameResult} table=${table} sheet=${sheet} names=${names} />`}
      ${complete && table.next && html`<p>${t("web.again.started")}</p>`}
      <button class="primary" onClick=${onClose}>${t("web.continue")}</button>
      ${complete && you !== null && html` <button onClick=${() => playAgain(table, send)}>
        ${table.next ? t("web.again.join") : t("web.again.button")}</button>`}
    </div></dialog>`;
}

// The points of a seat's score for a round that are not the pips of the tiles left, as
// the server scored them ("+25: double blank · +10: 1 double left open"; "" for none).
function extraNote(extra) {
  if (!extra) return "";
  return [extra.double_blank && t("web.score_extra.double_blank", { points: extra.double_blank }),
    extra.penalty && tn("web.score_extra.penalty", extra.open_doubles, { points: extra.penalty })]
    .filter(Boolean).join(" · ");
}

// -- replay viewer ----------------------------------------------------------------------

// An open double's look: under open_doubles_block the oldest one must be covered before
// anything else (a red frame), the later ones after it (dashed); without that rule an
// open double blocks nobody and gets only its ‼ mark. Once the round is over (`over`)
// nobody is to cover anything: a double left open gets only its mark, whatever the rules.
function doubleClass(owner, openDoubles, blocking, over) {
  const at = (openDoubles || []).map(String).indexOf(String(owner));
  if (at < 0) return "";
  if (over) return "open-double-free left-open";
  return blocking ? (at === 0 ? "open-double" : "open-double later") : "open-double-free";
}

// what an open double's ‼ is called: an open double, or once the round is over, a double
// left open (nothing is to be answered any more)
function openDoubleWords(over) {
  return t(over ? "web.double_left_open" : "game.open_double");
}

// the largest file the page reads to send as a record (the server's own limit, 1 MB
// unless set, is said by its refusal): no record is near it
const RECORD_FILE_MOST = 20_000_000;

// A kept game's replay (`/replay/ID`): its positions from the server, in the viewer.
function ReplayPage({ id, big }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState("");
  useEffect(() => { api(`/api/games/${id}/replay`).then(setData).catch((e) => setError(e.message)); }, [id]);
  useEffect(() => { document.title = `${t("web.replay")} #${id} · ${t("game.name")}`; }, [id, LANG]);
  if (error) return refusedPage(`${t("web.replay")} #${id}`, error);
  if (!data) return html`<p>${t("web.loading")}</p>`;
  const analyse = (k, step) => api(`/api/games/${id}/analysis?round=${k}&step=${step}`);
  return html`<section class="replay"><${ReplayView} data=${data} big=${big} title=${`${t("web.replay")} #${id}`}
    heading="h1" download=${`/api/games/${id}/record`} analyse=${analyse} /></section>`;
}

// A game record opened from a file (`/replay`): a game saved by `mextrain play`, one
// downloaded from a replay here, or any record. The page sends it to the server, which
// checks it as `mextrain replay` does and gives its positions (keeping nothing of it);
// a file that is no record, or breaks the rules, is refused in the player's words, with
// the reader's own (English) for where. Another file may be opened at any time, or
// dropped on the page.
function RecordReplayPage({ big }) {
  const [opened, setOpened] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const opens = useRef(0);
  useEffect(() => { document.title = `${t("web.replay.open_title")} · ${t("game.name")}`; }, [LANG]);
  const open = async (file) => {
    if (!file || busy) return;
    setBusy(true);
    setError(null);
    try {
      // (a file far past any record's size is not read into the page at all)
      if (file.size > RECORD_FILE_MOST) throw { code: "record_too_large", message: `${file.size.toLocaleString("en")} bytes` };
      const text = await file.text();
      const res = await fetch(`/api/replay?lang=${encodeURIComponent(LANG)}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw (body.detail && typeof body.detail === "object" ? body.detail : { code: "http", message: "" });
      opens.current += 1;
      setOpened({ name: file.name, data: body, n: opens.current, text });
    } catch (err) {
      setOpened(null);
      setError(err instanceof Error ? { code: "http", message: "" } : err);
    } finally {
      setBusy(false);
    }
  };
  const drop = (e) => { e.preventDefault(); setOver(false); open(e.dataTransfer.files[0]); };
  // (the file input's own button speaks the browser's language, "Choose File" and "No file
  // chosen" at any page language: the page's button is drawn instead, the input unseen
  // over it, so that a click, a tap, the keyboard and a screen reader's touch all find
  // the input where the button is)
  return html`<section class=${over ? "replay record-open dropping" : "replay record-open"}
      onDragOver=${(e) => { e.preventDefault(); setOver(true); }} onDragLeave=${() => setOver(false)} onDrop=${drop}>
    <h1>${t("web.replay.open_title")}</h1>
    <p class="muted">${t("web.replay.open_help")}</p>
    <p><label class="field file-pick">${t("web.replay.open_file")}
      <span class="file-control"><input type="file" accept=".json,application/json" disabled=${busy} aria-describedby="record-open-said"
        onChange=${(e) => { open(e.target.files[0]); e.target.value = ""; }} />
      <span class="file-button" aria-hidden="true">${t("web.replay.choose_file")}</span></span></label></p>
    <div id="record-open-said" role="status" aria-live="polite">${busy ? html`<p>${t("web.loading")}</p>` : ""}</div>
    ${error && html`<${ErrorLine} error=${error} />`}
    ${opened && html`<${ReplayView} key=${opened.n} data=${opened.data} big=${big} title=${opened.name} heading="h2"
      analyse=${(k, step) => sentAnalysis(opened.text, k, step)} />`}
  </section>`;
}

// The analysis of a position of a record file the page holds (``text``): sent again, as
// the server keeps nothing of it; a refusal thrown as the server words it
async function sentAnalysis(text, k, step) {
  const res = await fetch(`/api/replay/analysis?round=${k}&step=${step}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorText(body.detail && typeof body.detail === "object" ? body.detail : { code: "http" }));
  return body;
}

// A move the analysis names, for the seat to move ("9-5 on their own train", "draw"): its
// tile as it would lie on the train named, the matching end first, as the log writes it
function analysedMove(m, seat, names, trains, spoken = false) {
  if (m === "draw") return t("game.hint.draw");
  if (m === "pass") return t("game.hint.pass");
  const [tile, where] = m.split("@");
  const train = (trains || []).find((tr) => String(tr.owner) === where);
  const laid = train ? laidOnto(tile, train.open_end) : tile;
  return t("web.hint.play", { tile: spoken ? tileSaid(laid) : laid, train: trainWords(where, seat, names) });
}

// The analysis in words: the best moves for the seat to move, with their chances to win
// the round, and the move the game made there (``spoken``: tiles in words)
function analysisWords(answer, names, trains, spoken = false) {
  const seat = answer.seat;
  const name = iso(names[seat]);
  const words = (m) => analysedMove(m, seat, names, trains, spoken);
  if (answer.forced) return [t("web.replay.analysis_forced", { name, move: words(answer.moves[0].move) })];
  const moves = answer.moves.map((m, i) => t(i ? "web.replay.analysis_short" : "web.hint.chance",
    { move: words(m.move), chance: pct(m.win_probability) }));
  const lines = [t("web.replay.analysis", { name, moves: moves.join(" · ") })];
  if (answer.played) {
    const chance = answer.played_win_probability;
    lines.push(t("web.replay.analysis_played", { move: chance === null || chance === undefined
      ? words(answer.played) : t("web.replay.analysis_short", { move: words(answer.played), chance: pct(chance) }) }));
  }
  return lines;
}

// The replay viewer: ``data``, a game's positions as the server gives them (every
// round from its deal, a position per action, every hand face up), stepped through by
// buttons, a slider and the arrow keys; ``title`` over it as ``heading``, and a link to
// ``download`` its record, where there is one.
function ReplayView({ data, big, title, heading, download, analyse }) {
  // the position shown, one state so that steps taken before a render (two keys pressed
  // at once) each go on from the one before, not all from the rendered one
  const [at, setAt] = useState({ round: 0, step: 0 });
  const { round, step } = at;
  const setStep = (s) => setAt((now) => ({ round: now.round, step: s }));
  // the analysis asked of a position (``at``: "round:step"), its answer or its refusal;
  // shown only while that position is
  const [analysis, setAnalysis] = useState(null);
  const here = `${round}:${step}`;
  const askAnalysis = () => {
    const at = here;
    setAnalysis({ at, busy: true });
    analyse(round, step)
      .then((answer) => setAnalysis((now) => (now && now.at === at ? { at, answer } : now)))
      .catch((err) => setAnalysis((now) => (now && now.at === at ? { at, error: err.message } : now)));
  };
  const shownAnalysis = analysis && analysis.at === here ? analysis : null;
  // one step on or back; past a round's last step, on to the next round's deal, and back
  // from a deal to the round before's end (the buttons and keys did nothing there, the
  // round's list the only way on)
  const forward = () => setAt((now) => {
    if (now.step < data.rounds[now.round].frames.length - 1) return { round: now.round, step: now.step + 1 };
    return now.round < data.rounds.length - 1 ? { round: now.round + 1, step: 0 } : now;
  });
  const back = () => setAt((now) => {
    if (now.step > 0) return { round: now.round, step: now.step - 1 };
    return now.round > 0 ? { round: now.round - 1, step: data.rounds[now.round - 1].frames.length - 1 } : now;
  });
  // (the keys reach the steps of the latest render, whenever the listener was set; set
  // once, as the viewer is first drawn, not after: a key pressed as soon as it showed was
  // lost while the listener waited for the page to be painted)
  const steps = useRef(null);
  steps.current = { forward, back };
  useLayoutEffect(() => {
    const onKey = (e) => {
      if (!isShortcut(e)) return;  // the slider steps by itself when focused
      if (e.key === "ArrowRight") steps.current.forward();
      if (e.key === "ArrowLeft") steps.current.back();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const rnd = data.rounds[round];
  const frame = rnd.frames[step];
  const names = gameNames(data.players, data.bots);
  // at a round's end, as the table's result said it: how the round ended, the totals so
  // far, and after the last round the winners
  const out = frame.ended === "out" ? frame.hand_sizes.indexOf(0) : -1;
  const totals = names.map((_, s) => data.rounds.slice(0, round + 1)
    .reduce((sum, r) => sum + ((r.scores || [])[s] || 0), 0));
  return html`<div class="replay-view">
    <div class="replay-head"><${heading}>${title}</${heading}>
      ${download && html`<a class="small" href=${download} download>${t("web.download_record")}</a>`}</div>
    ${data.complete === false && html`<p class="muted">${t("web.replay.in_progress")}</p>`}
    <div class="controls">
      <label>${t("game.round")} <select value=${round} onChange=${(e) => setAt({ round: Number(e.target.value), step: 0 })}>
        ${data.rounds.map((r, k) => html`<option value=${k} aria-label=${`${k + 1} (${tileLabel(`${r.engine}-${r.engine}`)})`}>${
          k + 1} (${r.engine}-${r.engine})</option>`)}</select></label>
      <button onClick=${() => setStep(0)} aria-label=${t("web.replay.first")}>«</button>
      <button onClick=${back} aria-label=${t("web.replay.back")}>◀</button>
      <input type="range" min="0" max=${rnd.frames.length - 1} value=${step} aria-label=${t("web.replay.step")}
        aria-valuetext=${`${step} / ${rnd.frames.length - 1}: ${frame.action ? moveWords(frame.action, names, undefined, frame.trains, true) : t("web.replay.deal")}`}
        onInput=${(e) => setStep(Number(e.target.value))} />
      <button onClick=${forward} aria-label=${t("web.replay.forward")}>▶</button>
      <span>${step} / ${rnd.frames.length - 1}</span>
      <span class="muted replay-move" role="status" aria-live="polite">${frame.action
        ? shownSaid(moveWords(frame.action, names, undefined, frame.trains), moveWords(frame.action, names, undefined, frame.trains, true))
        : t("web.replay.deal")}</span>
    </div>
    ${analyse && !frame.ended && html`<div class="analysis">
      <button class="small" onClick=${askAnalysis} disabled=${Boolean(shownAnalysis && shownAnalysis.busy)}>${t("web.replay.analyse")}</button>
      <div role="status" aria-live="polite">${shownAnalysis && (shownAnalysis.busy ? html`<p class="muted">${t("web.replay.analysing")}</p>`
        : shownAnalysis.error ? html`<p class="error">${shownAnalysis.error}</p>`
        : analysisWords(shownAnalysis.answer, names, frame.trains).map((line, i) => html`<p class=${i ? "analysis-played" : "analysis-moves"}>${
          shownSaid(line, analysisWords(shownAnalysis.answer, names, frame.trains, true)[i])}</p>`))}</div></div>`}
    <div class="replay-hands">${frame.hands.map((hand, s) => html`<div class=${"replay-hand" + (frame.current_seat === s && !frame.ended ? " current" : "")}
      role="group" aria-label=${sentences(`${names[s]}${leftMark(data.left, s)}: ${tn("web.hand_count", hand.length)}`,
        frame.current_seat === s && !frame.ended && tcap("web.turn_of", { name: names[s] }))}>
      ${frame.current_seat === s && !frame.ended && html`<span class="to-play" aria-hidden="true">▶ </span>`}<strong>${names[s]}</strong>${(data.left || [])[s] && html` <span class="left-mark">${leftMark(data.left, s).trim()}</span>`} <span class="hand-size">${hand.length}</span>
      <div>${hand.map((tile) => html`<${Tile} tile=${tile} big=${big} />`)}</div></div>`)}</div>
    <div class="trains"><div class="train replay-engine"><span class="train-owner">${cap(t("game.engine"))}</span>
      <span class="train-tiles"><${Tile} tile=${`${rnd.engine}-${rnd.engine}`} big=${big} /></span></div>
      ${frame.trains.map((tr) => html`<div class=${["train", doubleClass(tr.owner, frame.open_doubles, data.open_doubles_block, Boolean(frame.ended)),
          tr.owner === "M" ? "mexican" : ""].join(" ")}
        role="group" aria-label=${sentences(tr.owner === "M" ? tcap("game.train.mexican") : tcap("game.train.of", { name: names[tr.owner] }),
          tn("web.train_tiles", tr.tiles.length), tcap("web.open_end", { pip: tr.open_end }),
          tr.marker && tcap("web.marker_up"), tr.open_double && cap(openDoubleWords(frame.ended)))}>
      <span class="train-owner">${tr.owner === "M" ? cap(t("game.train.mexican"))
        : html`<span class="who" title=${names[tr.owner]}>${names[tr.owner]}</span>`} ${tr.marker && html`<span class="marker" role="img" aria-label=${t("web.marker_up")}>⚑</span>`}
        ${tr.open_double && html`<span class="open-double-mark" role="img" aria-label=${openDoubleWords(frame.ended)}>‼</span>`}</span>
      <span class="train-tiles">${tr.tiles.map((tile) => html`<${Tile} tile=${tile} big=${big} />`)}</span></div>`)}</div>
    ${frame.ended && html`<p class="replay-scores"><strong>${t("web.round_over")}</strong> ${rnd.scores
      && rnd.scores.map((p, s) => t("web.score_of", { name: iso(names[s]), points: p })
        + (extraNote((rnd.extra || [])[s]) ? ` (${extraNote(rnd.extra[s])})` : "")).join(" · ")}</p>
      <p class="how-ended">${out >= 0 ? tcap("game.ended.out", { who: iso(names[out]) }) : tcap("game.ended.blocked")}.</p>
      <p class="replay-totals"><strong>${cap(t("game.total"))}</strong> ${totals.map((p, s) =>
        t("web.score_of", { name: iso(names[s]), points: p })
        + (round === data.rounds.length - 1 ? leftMark(data.left, s) : "")).join(" · ")}</p>
      ${round === data.rounds.length - 1 && html`<p class="winners">${winnersLine((data.winners || []).map((s) => iso(names[s])))}</p>`}`}
  </div>`;
}

// -- statistics -------------------------------------------------------------------------

// a win rate's interval, "9%–91%", said in words ("9% to 91%"): the dash may be read "minus"
const interval = ([low, high]) => shownSaid(`${pct(low)}–${pct(high)}`,
  t("web.stats.interval", { low: pct(low), high: pct(high) }));

// When a game finished, its month in words ("Dec 5, 2026, 7:32 AM", "5 déc. 2026, 07:32"):
// English in digits was "12/5/2026, 7:32:22 AM", the 5th of December or the 12th of May
// by who reads it
const finishedWhen = (at) => new Date(at * 1000).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });

// A person whose every game is one they left has no win rate or average: a dash, said
// in words (a screen reader may say nothing of a dash)
const noResult = () => shownSaid("—", t("web.stats.no_result"));

// A rating as the statistics show it: one decimal, in the reader's way of writing numbers
const ratingText = (rating) => Number(rating).toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// The ranking by rating: the people and the bot levels they met, the highest first (a
// person whose every game was one they left has no rating, and is not in it)
function Ranking({ players, bots }) {
  const rated = [
    ...players.filter((p) => p.rating !== null && p.rating !== undefined).map((p) => ({ name: p.name, rating: p.rating, games: p.rated_games, bot: false })),
    ...bots.map((b) => ({ name: t("web.stats.bot_level", { level: t(`web.bot.${b.level}`) }), rating: b.rating, games: b.games, bot: true })),
  ].sort((a, b) => b.rating - a.rating);
  if (!rated.length) return null;
  return html`<h2>${t("web.stats.ranking")}</h2>
    <p class="muted rating-help">${t("web.stats.rating_help")}</p>
    <ol class="ranking">${rated.map((r) => html`<li class=${r.bot ? "bot" : ""}><bdi>${r.name}</bdi>
      <span class="rating">${ratingText(r.rating)}</span> <span class="muted rated-games">(${tn("web.stats.games_count", r.games)})</span></li>`)}</ol>`;
}

// the way to a record file's replay (`/replay`), from the statistics
const openRecordLink = () => html`<p class="open-record"><a href="/replay"
  onClick=${(e) => { e.preventDefault(); go("/replay"); }}>${t("web.replay.open_link")}</a></p>`;

function StatsPage() {
  const [data, setData] = useState(null);
  useEffect(() => { api("/api/stats").then(setData); }, []);
  useEffect(() => { document.title = `${t("web.stats.title")} · ${t("game.name")}`; }, [LANG]);
  if (!data) return html`<p>${t("web.loading")}</p>`;
  if (!data.players.length && !data.recent.length) return html`<section class="stats">
    <h1>${t("web.stats.title")}</h1><p class="stats-none">${t("web.stats.none")}</p>${openRecordLink()}</section>`;
  return html`<section class="stats">
    <h1>${t("web.stats.title")}</h1>
    <div class="scroll-x"><table class="sheet"><caption class="sr-only">${t("web.stats.caption")}</caption><thead><tr><th scope="col">${t("web.stats.player")}</th><th scope="col">${t("web.stats.games")}</th>
      <th scope="col">${t("web.stats.wins")}</th><th scope="col" class="rate">${t("web.stats.rate")}</th>
      <th scope="col">${t("web.stats.average")}</th><th scope="col" class="left">${t("web.stats.left")}</th></tr></thead>
      <tbody>${data.players.map((p) => html`<tr><th scope="row"><bdi>${p.name}</bdi></th><td>${p.games}</td><td>${p.wins}</td>
        ${p.games ? html`<td>${pct(p.win_rate)} <span class="ival">(${interval(p.win_interval)})</span></td><td>${Number(p.average).toLocaleString(LANG, { maximumFractionDigits: 2 })}</td>`
          : html`<td class="none">${noResult()}</td><td class="none">${noResult()}</td>`}
        <td class="left">${p.left ?? 0}</td></tr>`)}</tbody></table></div>
    <${Ranking} players=${data.players} bots=${data.bots || []} />
    <h2>${t("web.stats.recent")}</h2>
    <ul class="recent">${data.recent.map((g) => ({ ...g, players: gameNames(g.players, g.bots) })).map((g) => html`<li>
      <a href=${`/replay/${g.id}`} aria-label=${t("web.replay.game", { number: g.id })}
        onClick=${(e) => { e.preventDefault(); go(`/replay/${g.id}`); }}>#${g.id}</a>
      ${` ${finishedWhen(g.finished)} — ${g.players.map((n, s) => `${iso(n)} ${g.totals[s]}`
        + leftMark(g.left, s)).join(", ")}`}
      ${` — ${winnersLine(g.winners.map((s) => iso(g.players[s])))}`}${g.taken_back
        ? html` <span class="muted taken-back">(${t("web.stats.taken_back_mark")})</span>` : ""}</li>`)}</ul>
    ${openRecordLink()}
  </section>`;
}

// -- start ------------------------------------------------------------------------------

firstStrings().then((unloaded) => render(html`<${App} unloaded=${unloaded} />`, document.getElementById("app")));
