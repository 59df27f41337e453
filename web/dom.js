// A small element builder: h("button", { onclick }, "text", child, ...).

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** Says `text` to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  // Emptying first makes the same words announced twice in a row still count as new.
  region.textContent = "";
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}
