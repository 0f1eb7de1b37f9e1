import { type StepExecutor } from '@docflow/engine';
import type { ProcessorStepOptions } from './processor-step-options.ts';
/** The run secret that keys the request signature. */
export declare const EXTERNAL_VALIDATION_SECRET_KEY = "externalDataValidationSigningSecret";
/** EXTERNAL_DATA_VALIDATION step config. */
export interface ExternalDataValidationStepConfig {
    readonly requestOptions: {
        readonly url: string;
        readonly method: 'GET' | 'POST' | 'PUT';
        readonly headers?: Readonly<Record<string, string>>;
        readonly contentType?: 'application/json' | 'text/plain';
    };
    readonly failureBehavior?: 'CONTINUE' | 'EXIT';
}
/** The EXTERNAL_DATA_VALIDATION executor. */
export declare function externalDataValidationStep(options?: ProcessorStepOptions): StepExecutor<ExternalDataValidationStepConfig>;
//# sourceMappingURL=external-data-validation-step.d.ts.map