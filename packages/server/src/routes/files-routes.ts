import type { FileResource } from '@docflow/engine';
import { ApiError, notSupported } from '../http/api-error.ts';
import { presignedFilePath } from '../presign/presigned-paths.ts';
import { PRESIGNED_URL_TTL_MS } from '../presign/url-signer.ts';
import { type AnyRoute, type ServerContext, workspaceRoute } from './route.ts';
import {
  deleted,
  fileResource,
  fileSummary,
  idParams,
  listOf,
  pageQuery,
  querySchema,
  sortDir,
} from './schemas.ts';

/** `GET /files/{id}`'s file: a presigned URL to its bytes, valid 15 minutes. */
export function withPresignedUrl(
  file: FileResource,
  workspaceId: string,
  origin: string,
  server: ServerContext,
): FileResource {
  const expiresAt = new Date(Date.now() + PRESIGNED_URL_TTL_MS);
  return {
    ...file,
    presignedUrl: origin + server.signer.sign(presignedFilePath(workspaceId, file.id), expiresAt),
  };
}

const TAG = 'Files';

/** Files: upload (multipart), list, get (with a presigned URL), delete. */
export const filesRoutes: readonly AnyRoute[] = [
  workspaceRoute<Record<string, never>, { convertToPdf?: boolean }, undefined>({
    method: 'POST',
    path: '/files/upload',
    operationId: 'files.upload',
    summary: 'Upload a file (multipart/form-data with one part, `file`)',
    tag: TAG,
    query: querySchema({
      convertToPdf: {
        type: 'boolean',
        description: 'only false: docflow does not convert at upload',
      },
    }),
    body: 'multipart',
    multipart: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', contentEncoding: 'binary' },
        password: { type: 'string', description: 'not supported: refused when given' },
      },
    },
    response: fileResource,
    async handle({ engine, query, request, server }) {
      if (query.convertToPdf === true) {
        throw notSupported(
          'query.convertToPdf',
          'docflow does not convert files at upload; use a FILE_CONVERSION step in a workflow',
        );
      }
      let upload: { name: string; data: Buffer } | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || upload !== undefined) {
            // Drain the stream so the parser can go on to the next part.
            part.file.resume();
            throw new ApiError(
              'INVALID_REQUEST',
              `body.${part.fieldname}: unexpected file part; send one part named "file"`,
              {
                issues: [
                  {
                    code: 'UNKNOWN_KEY',
                    path: `body.${part.fieldname}`,
                    message: 'unexpected file part',
                  },
                ],
              },
            );
          }
          upload = { name: part.filename || 'upload', data: await part.toBuffer() };
        } else if (part.fieldname === 'password') {
          throw notSupported(
            'body.password',
            'docflow does not unlock password-protected PDFs; upload the file without a password',
          );
        } else {
          throw new ApiError('INVALID_REQUEST', `body.${part.fieldname}: unknown form field`, {
            issues: [
              {
                code: 'UNKNOWN_KEY',
                path: `body.${part.fieldname}`,
                message: 'unknown form field',
              },
            ],
          });
        }
      }
      server.bodyComplete(request);
      if (!upload) {
        throw new ApiError(
          'INVALID_REQUEST',
          'body.file: is required (a multipart part named "file")',
          {
            issues: [{ code: 'REQUIRED', path: 'body.file', message: 'is required' }],
          },
        );
      }
      return engine.files.upload(upload);
    },
  }),
  workspaceRoute<
    Record<string, never>,
    {
      nameContains?: string;
      sortDir?: 'asc' | 'desc';
      nextPageToken?: string;
      maxPageSize?: number;
    },
    undefined
  >({
    method: 'GET',
    path: '/files',
    operationId: 'files.list',
    summary: 'List files, newest first',
    tag: TAG,
    query: querySchema({ nameContains: { type: 'string', maxLength: 255 }, sortDir, ...pageQuery }),
    response: listOf(fileSummary),
    handle: ({ engine, query }) => engine.files.list(query),
  }),
  workspaceRoute<
    { id: string },
    { rawText?: boolean; markdown?: boolean; html?: boolean },
    undefined
  >({
    method: 'GET',
    path: '/files/{id}',
    operationId: 'files.retrieve',
    summary: 'Get a file, with a presigned URL to its bytes (15 minutes)',
    tag: TAG,
    params: idParams,
    query: querySchema({
      rawText: { type: 'boolean', description: 'deprecated; contents stay null' },
      markdown: { type: 'boolean', description: 'deprecated; contents stay null' },
      html: { type: 'boolean', description: 'deprecated; contents stay null' },
    }),
    response: fileResource,
    async handle({ engine, workspace, params, request, server }) {
      const file = await engine.files.get(params.id);
      return withPresignedUrl(file, workspace.id, server.origin(request), server);
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'DELETE',
    path: '/files/{id}',
    operationId: 'files.delete',
    summary: 'Delete a file and its bytes',
    tag: TAG,
    params: idParams,
    response: deleted,
    handle: ({ engine, params }) => engine.files.delete(params.id),
  }),
];
