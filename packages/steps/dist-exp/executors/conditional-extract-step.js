/**
 * The CONDITIONAL_EXTRACT executor: `rules[] { name?, formula, extractor }`; the first rule whose
 * formula evaluates to TRUE (with @docflow/formulas, over the path's outputs and the run's
 * metadata) picks the extractor that runs. The last rule's formula is `TRUE`, the catch-all. A
 * formula that fails to parse or evaluate does not hold; its error is reported in the output.
 */
import { defineStep } from '@docflow/engine';
import { evaluateFormula } from '@docflow/formulas';
import { CONFIG_LIMITS, processorReferenceSchema } from './config-schemas.js';
import { executeExtraction } from './extract-step.js';
import { isFailure, resolveStepProcessor } from './resolve-step-processor.js';
import { formulaScope } from './step-outputs.js';
/**
 * The CONDITIONAL_EXTRACT executor. Output: the chosen extractor's `{ value, metadata }` plus
 * `rule: { index, name, extractor }` and `ruleErrors` for formulas that failed.
 */
export function conditionalExtractStep(options = {}) {
    return defineStep({
        type: 'CONDITIONAL_EXTRACT',
        requiresConfig: true,
        configSchema: {
            type: 'object',
            required: ['rules'],
            additionalProperties: false,
            properties: {
                rules: {
                    type: 'array',
                    minItems: 1,
                    maxItems: CONFIG_LIMITS.rules,
                    items: {
                        type: 'object',
                        required: ['formula', 'extractor'],
                        additionalProperties: false,
                        properties: {
                            name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.nameLength },
                            formula: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.textLength },
                            extractor: processorReferenceSchema(false),
                        },
                    },
                },
            },
        },
        async execute(input, context) {
            const rules = input.config.rules;
            const last = rules[rules.length - 1];
            if (last?.formula.trim().replace(/^=/, '').trim().toUpperCase() !== 'TRUE') {
                return {
                    failure: {
                        reason: 'INVALID_CONFIGURATION',
                        message: `rules[${Math.max(rules.length - 1, 0)}].formula: the last rule must be TRUE (the catch-all)`,
                    },
                };
            }
            const scope = formulaScope(input);
            const ruleErrors = [];
            let chosen = rules.length - 1;
            for (const [index, rule] of rules.entries()) {
                const result = evaluateFormula(rule.formula.replace(/^\s*=/, ''), scope);
                if (result.ok && result.value === true) {
                    chosen = index;
                    break;
                }
                if (!result.ok)
                    ruleErrors.push({
                        index,
                        name: rule.name ?? null,
                        error: `${result.failureReason}: ${result.error}`,
                    });
            }
            const rule = rules[chosen] ?? last;
            if (!rule)
                throw new Error('unreachable: rules is not empty');
            const config = await resolveStepProcessor('EXTRACT', undefined, rule.extractor, options.resolveProcessor ?? context.resolveProcessor?.bind(context), context.signal);
            if (isFailure(config))
                return config;
            const outcome = await executeExtraction(config, input, context, options);
            if ('failure' in outcome)
                return outcome;
            return {
                ...outcome,
                output: {
                    ...outcome.output,
                    rule: {
                        index: chosen,
                        name: rule.name ?? null,
                        extractor: { id: rule.extractor.id, version: rule.extractor.version },
                    },
                    ruleErrors,
                },
            };
        },
    });
}
//# sourceMappingURL=conditional-extract-step.js.map