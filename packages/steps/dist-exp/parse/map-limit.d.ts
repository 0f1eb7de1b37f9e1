/** Maps with at most `limit` calls in flight, keeping the input order. */
export declare function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
//# sourceMappingURL=map-limit.d.ts.map