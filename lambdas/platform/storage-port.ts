import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';

/**
 * The table and the file store as the repositories reach them: a port, built by each composition
 * root. Each client is created at its first use (a function that never touches the files never
 * loads S3).
 */
export interface Storage {
  /** The table's document client. */
  table(): DynamoDBDocumentClient;
  /** The file store's client. */
  blob(): Promise<S3Client>;
  /** The client that signs links handed to clients (downloads, staging): it may name an origin this process does not use itself. */
  linkSigner(): Promise<S3Client>;
}
