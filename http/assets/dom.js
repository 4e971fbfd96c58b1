// A small helper to build elements: el('p', {class: 'x', text: 'Hi'}, child...).
// Attributes set to undefined, null or false are left out; true sets an
// empty attribute. Never an inline style: the page's Content-Security-Policy
// refuses them.
export function el(name, attributes = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attributes)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return e;
}
