// Preact + htm, vendored (no build step): `html` tagged templates instead of JSX.
import { h } from "./vendor/preact.mjs";
import htm from "./vendor/htm.mjs";

export const html = htm.bind(h);
