import { describe, expect, it } from "vitest";
import { corpusLines, refusingRule } from "./corpus.js";

// The guard's two promises side by side: what an agent runs every day passes, what wipes a home, a root,
// a project or a disk does not, however it is spelt.
describe("the benign corpus: everyday agent commands", () => {
  it.each(corpusLines("benign"))("allows %j", (line) => {
    expect(refusingRule(line)).toBeUndefined();
  });
});

describe("the catastrophic corpus", () => {
  it.each(corpusLines("catastrophic"))("refuses %j", (line) => {
    expect(refusingRule(line)).toBeDefined();
  });
});
