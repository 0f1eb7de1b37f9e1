import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { validateProcessorConfig } from '../../src/processors/validate-processor-config.ts';

const kinds = fc.constantFrom('extractor', 'classifier', 'splitter' as const);

const classification = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd'),
  type: fc.constantFrom('invoice', 'receipt', 'other'),
});

describe('validateProcessorConfig laws', () => {
  test.prop([kinds, fc.anything()])(
    'never throws; every issue has a code, a path under config and a message',
    (kind, config) => {
      const issues = validateProcessorConfig(kind, config);
      for (const issue of issues) {
        expect(issue.code).toMatch(/^[A-Z_]+$/);
        expect(issue.path.startsWith('config')).toBe(true);
        expect(issue.message.length).toBeGreaterThan(0);
      }
    },
  );

  test.prop([fc.array(classification, { minLength: 1, maxLength: 6 })])(
    'a classifier is valid exactly when ids are unique and one classification is other',
    (classifications) => {
      const unique = new Set(classifications.map((c) => c.id)).size === classifications.length;
      const others = classifications.filter((c) => c.type === 'other').length;
      const issues = validateProcessorConfig('classifier', { classifications });
      expect(issues.length === 0).toBe(unique && others === 1);
      const duplicates = classifications.length - new Set(classifications.map((c) => c.id)).size;
      expect(issues.filter((i) => i.code === 'DUPLICATE_CLASSIFICATION_ID')).toHaveLength(
        duplicates,
      );
    },
  );

  test.prop([fc.array(classification, { minLength: 1, maxLength: 6 })])(
    'a splitter is valid exactly when ids are unique and at least one is other',
    (splitClassifications) => {
      const unique =
        new Set(splitClassifications.map((c) => c.id)).size === splitClassifications.length;
      const others = splitClassifications.filter((c) => c.type === 'other').length;
      const issues = validateProcessorConfig('splitter', { splitClassifications });
      expect(issues.length === 0).toBe(unique && others >= 1);
    },
  );
});
