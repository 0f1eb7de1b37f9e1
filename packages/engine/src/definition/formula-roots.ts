import type { FormulaAst } from '@docflow/formulas';

/** The first segment of every variable path in a formula (`extract1` of `extract1.total`). */
export function formulaRoots(ast: FormulaAst): string[] {
  const roots: string[] = [];
  const walk = (node: FormulaAst): void => {
    switch (node.kind) {
      case 'path':
        if (node.segments[0] !== undefined) roots.push(node.segments[0]);
        break;
      case 'unary':
        walk(node.operand);
        break;
      case 'binary':
        walk(node.left);
        walk(node.right);
        break;
      case 'call':
        for (const arg of node.args) walk(arg);
        break;
      default:
        break;
    }
  };
  walk(ast);
  return roots;
}
