import { describe, it } from '@jest/globals';
import { copyOfficial, copyOfficialDescription, writeStandIn } from '../e2e/helpers/official.js';
import { useRunHarness } from './run-harness.js';

const h = useRunHarness();
const LOGIN_SRC: [string, string] = ['https://raw.githubusercontent.com/swagger-api/swagger-petstore/master/src/main/resources/openapi.yaml', './petstore-login.openapi.yaml'];
const BNPL_SRC: [string, string] = ['https://raw.githubusercontent.com/OAI/Arazzo-Specification/main/examples/1.0.0/bnpl-openapi.yaml', './bnpl-openapi.yaml'];

describe('explore', () => {
  it('validate originals', async () => {
    h.server.setRoutes({});
    copyOfficialDescription(h.ws, 'pet-coupons.openapi.yaml', h.server.url);
    copyOfficialDescription(h.ws, 'oauth.openapi.yaml', h.server.url);
    copyOfficialDescription(h.ws, 'FAPI-PAR.openapi.yaml', h.server.url);
    copyOfficialDescription(h.ws, 'bnpl-openapi.yaml', `${h.server.url}/bnpl/v1`);
    writeStandIn(h.ws, 'petstore-login.openapi.yaml', h.server.url);
    writeStandIn(h.ws, 'animals.openapi.yaml', h.server.url, 'animals.yaml');
    copyOfficial(h.ws, 'pet-coupons.arazzo.yaml');
    copyOfficial(h.ws, 'oauth.arazzo.yaml');
    copyOfficial(h.ws, 'FAPI-PAR.arazzo.yaml');
    copyOfficial(h.ws, 'bnpl-arazzo.yaml', [BNPL_SRC]);
    copyOfficial(h.ws, 'LoginAndRetrievePets.arazzo.yaml', [LOGIN_SRC]);
    copyOfficial(h.ws, 'ExtendedParametersExample.arazzo.yaml');
    for (const f of ['pet-coupons.arazzo.yaml', 'oauth.arazzo.yaml', 'FAPI-PAR.arazzo.yaml', 'bnpl-arazzo.yaml', 'LoginAndRetrievePets.arazzo.yaml', 'ExtendedParametersExample.arazzo.yaml']) {
      const r = await h.tool(['arazzo', 'validate', f, '--tool-runner', 'v2']);
      console.log(`=== ${f} code=${r.code}\nSTDOUT:\n${r.stdout}\nSTDERR:\n${r.stderr}`);
    }
  });
});
