import { parse, type DocumentNode } from "graphql";
import { describe, expect, it } from "vitest";
import { TextKeyedCache } from "./document-cache";

describe("the parsed-document cache stays bounded", () => {
  it("in count: many more one-off queries than it keeps; the ones used lately stay", () => {
    const cache = new TextKeyedCache<DocumentNode>(50, 1_000_000);
    const hot = "{ events(limit: 1) { items { slug } } }";
    cache.set(hot, parse(hot));
    for (let i = 0; i < 500; i++) {
      const query = `{ events(limit: ${i}) { items { slug name } } }`;
      cache.set(query, parse(query));
      expect(cache.get(hot)).toBeDefined();
      expect(cache.size).toBeLessThanOrEqual(50);
    }
    expect(cache.get("{ events(limit: 0) { items { slug name } } }")).toBeUndefined();
  });

  it("in bytes: large queries fill it past its bytes and it stays under them; one over a tenth is never kept", () => {
    const maxBytes = 100_000;
    const cache = new TextKeyedCache<string>(1_000, maxBytes);
    for (let i = 0; i < 100; i++) {
      cache.set(`query Q${i} { ${"__typename ".repeat(800)} }`, "documento");
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.size).toBeLessThan(20);
    cache.set(`{ ${"__typename ".repeat(2_000)} }`, "enorme");
    expect(cache.get(`{ ${"__typename ".repeat(2_000)} }`)).toBeUndefined();
  });
});
