import { describe, it } from "node:test";
import assert from "node:assert/strict";

import { nextTask } from "../../src/next-task.js";

describe("nextTask", () => {
  it("runs after every microtask queued before it, however deep the await chain", async () => {
    const order: string[] = [];
    const done = new Promise<void>((resolve) => nextTask(() => {
      order.push("task");
      resolve();
    }));
    const chain = async () => {
      for (let depth = 0; depth < 20; depth += 1) await Promise.resolve();
      order.push("awaits");
    };
    void chain();
    await done;
    assert.deepEqual(order, ["awaits", "task"]);
  });

  it("runs callbacks in the order they were given", async () => {
    const order: number[] = [];
    await new Promise<void>((resolve) => {
      for (let n = 0; n < 5; n += 1) nextTask(() => order.push(n));
      nextTask(resolve);
    });
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });
});
