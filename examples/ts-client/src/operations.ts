/**
 * The operations this client sends. codegen reads the `graphql()` calls here and types each
 * one from schema.graphql: change a field in the schema and `npm run codegen && npm run
 * build` fails where this program used it.
 */
import { graphql } from "./generated/gql.js";

export const ServerInfoQuery = graphql(`
  query ServerInfo {
    serverInfo {
      chosenSeedsAllowed
    }
  }
`);

export const CreateTableMutation = graphql(`
  mutation CreateTable($input: CreateTableInput!) {
    createTable(input: $input) {
      __typename
      ... on CreateTableOk {
        joinCode
        table {
          id
          version
          status
          seats {
            seat
            taken
          }
        }
      }
      ... on Rejected {
        code
        message
      }
    }
  }
`);

export const JoinTableMutation = graphql(`
  mutation JoinTable($tableId: String!, $seat: Int!, $name: String!, $code: String) {
    joinTable(tableId: $tableId, seat: $seat, name: $name, code: $code) {
      __typename
      ... on JoinOk {
        seat
        seatToken
      }
      ... on Rejected {
        code
        message
      }
    }
  }
`);

export const SeatViewQuery = graphql(`
  query SeatView($tableId: String!) {
    table(id: $tableId) {
      id
      version
      status
      viewer
      activeSeats
      phase {
        name
        step
        round
      }
      legalActions {
        type
        params
      }
    }
  }
`);

export const ActMutation = graphql(`
  mutation Act($tableId: String!, $action: ActionInput!, $expectedVersion: Int) {
    act(tableId: $tableId, action: $action, expectedVersion: $expectedVersion) {
      __typename
      ... on ActOk {
        version
        table {
          status
          activeSeats
        }
      }
      ... on ActRejected {
        code
        message
      }
    }
  }
`);

export const FinalTableQuery = graphql(`
  query FinalTable($tableId: String!) {
    table(id: $tableId) {
      id
      status
      version
      result
      seed
      seedCommitment
    }
  }
`);
