import { describe, expect, it } from 'vitest';
import { leadingKeys } from './aws-endpoint';

// The partition keys the recording endpoint reads from each DynamoDB request shape the bundles
// send (marshalled: {S: …}), as IAM's dynamodb:LeadingKeys would hold them.
describe('partition keys of a recorded DynamoDB call', () => {
  it('reads single-item calls by Key or Item', () => {
    expect(leadingKeys({ TableName: 't', Key: { pk: { S: 'ORG#o1' }, sk: { S: 'BALANCE' } } })).toEqual(['ORG#o1']);
    expect(leadingKeys({ TableName: 't', Item: { pk: { S: 'UPLOAD#u1' }, sk: { S: 'META' } } })).toEqual(['UPLOAD#u1']);
  });

  it('reads a Query’s partition equality, by name or alias, either side, on the table or the index', () => {
    expect(leadingKeys({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': { S: 'SPAMNUM#n1' }, ':p': { S: 'RUN#' } } })).toEqual(['SPAMNUM#n1']);
    expect(leadingKeys({ IndexName: 'gsi1', KeyConditionExpression: '#k = :v AND #s < :b', ExpressionAttributeNames: { '#k': 'gsi1pk', '#s': 'gsi1sk' }, ExpressionAttributeValues: { ':v': { S: 'BALANCES' }, ':b': { S: 'x' } } })).toEqual(['BALANCES']);
    expect(leadingKeys({ IndexName: 'gsi3', KeyConditionExpression: ':v = gsi3pk', ExpressionAttributeValues: { ':v': { S: 'OUTBOX' } } })).toEqual(['OUTBOX']);
    // On an index, the table's pk is not the leading key.
    expect(leadingKeys({ IndexName: 'gsi2', KeyConditionExpression: 'pk = :v', ExpressionAttributeValues: { ':v': { S: 'ORG#o1' } } })).toEqual(['?']);
  });

  it('reads every key of a batch, reads and writes', () => {
    expect(leadingKeys({ RequestItems: { t: { Keys: [{ pk: { S: 'LOOKUP#+12125550100' } }, { pk: { S: 'LOOKUP#+12125550101' } }] } } })).toEqual(['LOOKUP#+12125550100', 'LOOKUP#+12125550101']);
    expect(leadingKeys({ RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'LOOKUP#a' } } } }, { DeleteRequest: { Key: { pk: { S: 'SPAMNUM#b' } } } }] } })).toEqual(['LOOKUP#a', 'SPAMNUM#b']);
  });

  it('marks what it cannot read, so no grant allows it', () => {
    expect(leadingKeys({ TableName: 't' })).toEqual(['?']);
    expect(leadingKeys({ KeyConditionExpression: 'pk = :v' })).toEqual(['?']);
    expect(leadingKeys({ Key: { pk: { N: '1' } } })).toEqual(['?']);
    expect(leadingKeys({ TransactItems: [{ Put: { Item: { pk: { S: 'ORG#o1' } } } }] })).toEqual(['?']);
  });
});
