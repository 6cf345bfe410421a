import { describe, expect, it } from "vitest";
import { ERROR_PAGE_ATTRIBUTE, errorPagesBeforeHydration, loadedErrorPages } from "./errorPagesLoader";

/** Just enough of a document for the marker lookup. */
const documentWith = (marker: boolean) => ({ querySelector: (selector: string) => (marker && selector === `[${ERROR_PAGE_ATTRIBUTE}]` ? {} : null) }) as Pick<Document, "querySelector">;

describe("error pages before hydration (decision 239)", () => {
  it("an ordinary page hydrates without fetching them; a page drawn as an error waits until they are here", async () => {
    await errorPagesBeforeHydration(documentWith(false));
    expect(loadedErrorPages()).toBeNull();
    await errorPagesBeforeHydration(documentWith(true));
    expect(loadedErrorPages()?.NotFoundPage).toBeTypeOf("function");
  });
});
