/**
 * Jump pointers on the binary and sponsor trees, so that "is X in my downline?" walks a bounded
 * number of rows instead of X's whole chain (spillover legs are 26,000 levels deep, and
 * the cost of the walk told who exists).
 *
 * Rule (Myers' skew-binary random-access stack, 1983): every member keeps one pointer to an
 * ancestor further up. A root jumps to itself; a new child of P jumps to jump(jump(P)) when P's
 * jump and that one's span the same number of levels, else to P itself. So a pointer comes from
 * three rows already there (placement stays O(1)), the depth a member at depth d jumps to
 * depends on d alone, and walking up from depth d to any depth t (take the jump unless it lands
 * above t, else the parent) takes at most 3·⌈log2(d + 1)⌉ steps: 39 at depth 30,000.
 */

/** The jump pointer of a new child of `parentId`, from the parent's row and the rows it jumps to. */
export function childJump(
  parentId: number,
  depthOf: (id: number) => number,
  jumpOf: (id: number) => number,
): number {
  const jump = jumpOf(parentId);
  const jumpOfJump = jumpOf(jump);
  return depthOf(parentId) - depthOf(jump) === depthOf(jump) - depthOf(jumpOfJump) ? jumpOfJump : parentId;
}

/** The most walk steps from depth `depth` to any shallower depth (the bound the tests hold the walk to). */
export const walkStepBound = (depth: number): number => 3 * Math.ceil(Math.log2(depth + 1));

/**
 * Hard cap on a walk whatever the data says: the bound for a tree 2^32 levels deep, far beyond
 * any number of members. Reached only on corrupt pointers, and then the answer is "outside".
 */
export const WALK_STEP_LIMIT = walkStepBound(2 ** 32);

export interface TreePositions {
  /** Levels below the member's root (0 for a root); -1 for a member on a cycle of links. */
  depth: Int32Array;
  /** The jump pointer; 0 for an id that is not a member or sits on a cycle. */
  jump: Int32Array;
}

/**
 * Depth and jump pointer of every member of a forest given by its links (`linkOf[id]`: the parent
 * or the sponsor, 0 for none; `isMember[id]`: the id exists). A link to an id that is not a member
 * makes a root, as the scope checks would find nothing above it. Ids index typed arrays (dense
 * ids, a million members in a few MB); iterative, as chains are tens of thousands deep.
 */
export function treePositions(linkOf: ArrayLike<number>, isMember: ArrayLike<number>): TreePositions {
  const size = linkOf.length;
  const UNKNOWN = -2;
  const ON_CHAIN = -3;
  const depth = new Int32Array(size).fill(UNKNOWN);
  const jump = new Int32Array(size);
  const chain: number[] = [];
  for (let id = 1; id < size; id++) {
    if (!isMember[id] || depth[id] !== UNKNOWN) continue;
    // Up the links to a member already placed, or to a root; then down again, placing each one.
    chain.length = 0;
    let cursor = id;
    while (cursor > 0 && cursor < size && isMember[cursor] && depth[cursor] === UNKNOWN) {
      depth[cursor] = ON_CHAIN;
      chain.push(cursor);
      cursor = linkOf[cursor]!;
    }
    // Where the climb stopped: no link (or a link to no member), a member placed before, or a
    // member of this very climb or one below a cycle (then nothing here has a depth).
    const stoppedAt = cursor > 0 && cursor < size && isMember[cursor] ? cursor : 0;
    const broken = stoppedAt !== 0 && depth[stoppedAt]! < 0;
    for (let i = chain.length - 1; i >= 0; i--) {
      const member = chain[i]!;
      const parent = i === chain.length - 1 ? stoppedAt : chain[i + 1]!;
      if (broken) {
        depth[member] = -1;
      } else if (parent === 0) {
        depth[member] = 0;
        jump[member] = member;
      } else {
        depth[member] = depth[parent]! + 1;
        jump[member] = childJump(
          parent,
          (m) => depth[m]!,
          (m) => jump[m]!,
        );
      }
    }
  }
  return { depth, jump };
}
