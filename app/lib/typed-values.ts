/**
 * What a person typed before React took the page over survives a client render (decision 185).
 *
 * A hydration that succeeds keeps the DOM, and with it every value typed into the server's HTML (React does not
 * touch an input's value while hydrating). But a hydration that fails builds the document again on the client:
 * React does it itself after a mismatch, and entry.client.tsx does it after an error that escapes React
 * (decision 180; a keystroke while a slow phone is still hydrating is enough). The new inputs start from their
 * default values, so the text typed into the old ones was lost and the form was posted without it.
 *
 * `rememberFields` notes the document's fields before hydration starts; `restore` (once the first render
 * committed) copies what was typed into a field React replaced to the field that took its place, and gives it
 * the focus back. A field React kept is left alone, and so is a new one the person already typed into.
 */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Inputs a person does not type into (their value is the page's own). */
const NOT_TYPED = new Set(["hidden", "submit", "button", "reset", "image"]);

const isInput = (field: Field): field is HTMLInputElement => field.tagName === "INPUT";
const isSelect = (field: Field): field is HTMLSelectElement => field.tagName === "SELECT";
const isCheckable = (field: Field): field is HTMLInputElement => isInput(field) && (field.type === "checkbox" || field.type === "radio");
const isFile = (field: Field): field is HTMLInputElement => isInput(field) && field.type === "file";

function fieldsOf(doc: Document): Field[] {
  return Array.from(doc.querySelectorAll<Field>("input[name], textarea[name], select[name]")).filter((field) => !(isInput(field) && NOT_TYPED.has(field.type)));
}

/**
 * Each field by what the same render draws again: its name and type (and value, for a checkbox or radio), and
 * which of the fields with those it is. Not its id: ids from `useId` differ between hydration and a client render.
 */
function byIdentity(fields: Field[]): Map<string, Field> {
  const seen = new Map<string, number>();
  const map = new Map<string, Field>();
  for (const field of fields) {
    const base = [field.tagName, field.type, field.name, isCheckable(field) ? field.value : ""].join("|");
    const nth = seen.get(base) ?? 0;
    seen.set(base, nth + 1);
    map.set(`${base}|${nth}`, field);
  }
  return map;
}

/** Whether the field holds something other than what the page drew. */
function wasTyped(field: Field): boolean {
  if (isCheckable(field)) return field.checked !== field.defaultChecked;
  if (isSelect(field)) return Array.from(field.options).some((option) => option.selected !== option.defaultSelected);
  if (isFile(field)) return Boolean(field.files?.length);
  return field.value !== field.defaultValue;
}

/**
 * Sets the value as the browser would, so React (its value tracker) and Conform (its `input` listener) see the
 * change. Both fields are of one kind: `byIdentity` paired them by tag and type.
 */
function copyValue(from: Field, to: Field) {
  if (isCheckable(from) && isCheckable(to)) {
    // A click toggles it and fires the events a person's click fires.
    if (to.checked !== from.checked) to.click();
    return;
  }
  if (isSelect(from) && isSelect(to)) {
    const chosen = new Set(Array.from(from.selectedOptions, (option) => option.value));
    const options = Array.from(to.options);
    if (options.every((option) => option.selected === chosen.has(option.value))) return;
    for (const option of options) option.selected = chosen.has(option.value);
  } else if (isFile(from) && isFile(to)) {
    to.files = from.files;
  } else if (to.value !== from.value) {
    const prototype = isInput(to) ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(to, from.value);
  } else {
    return;
  }
  to.dispatchEvent(new Event("input", { bubbles: true }));
  to.dispatchEvent(new Event("change", { bubbles: true }));
}

function focusAtEnd(field: Field) {
  field.focus({ preventScroll: true });
  if (isSelect(field) || isCheckable(field)) return;
  const end = field.value.length;
  try {
    field.setSelectionRange(end, end);
  } catch {
    // email, number and date inputs have no selection to move.
  }
}

export interface RememberedFields {
  /** After the first committed render: carries over what was typed into replaced fields. Runs once. */
  restore(): void;
}

export function rememberFields(doc: Document = document): RememberedFields {
  const before = byIdentity(fieldsOf(doc));
  let focused: Element | null = doc.activeElement;
  const onFocus = (event: FocusEvent) => {
    if (event.target instanceof Element && event.target.isConnected) focused = event.target;
  };
  doc.addEventListener("focusin", onFocus, true);
  let done = false;
  return {
    restore() {
      if (done) return;
      done = true;
      doc.removeEventListener("focusin", onFocus, true);
      const replaced = [...before].filter(([, field]) => !field.isConnected);
      if (!replaced.length) return;
      const after = byIdentity(fieldsOf(doc));
      const nothingFocused = !doc.activeElement || doc.activeElement === doc.body || !doc.activeElement.isConnected;
      for (const [identity, old] of replaced) {
        const now = after.get(identity);
        if (!now || now === old) continue;
        if (wasTyped(old) && !wasTyped(now)) copyValue(old, now);
        if (old === focused && nothingFocused) focusAtEnd(now);
      }
    },
  };
}
