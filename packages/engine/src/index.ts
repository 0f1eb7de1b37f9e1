export type { Clock } from './clock.ts';
export { systemClock } from './clock.ts';
export type { ValidationIssue } from './errors.ts';
export { EngineError, EngineErrorCode, isEngineError, StepError } from './errors.ts';
export type { DetectedFileType } from './files/detect-file-type.ts';
export { detectFileType } from './files/detect-file-type.ts';
export type {
  FileSummary,
  FileType,
  NewFile,
  StepContext,
  StepExecutor,
  StepFailure,
  StepFiles,
  StepInput,
  StepOutcome,
  StepSuccess,
  StepType,
  StepUsage,
} from './step-executor.ts';
export { defineStep, isStepFailure, STEP_TYPES } from './step-executor.ts';
