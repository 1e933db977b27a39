import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ConfirmAcknowledgement,
  DecideBeneficiaryChange,
  ListBeneficiaryProposals,
  type Operator,
  parseAcknowledgeContradiction,
  parseDecideProposal,
  parseListBeneficiaryProposals,
  type SearchQuery,
} from '#operations';
import { answer, Needs, OpsAuthGuard, Who } from './ops.controller.js';

/**
 * The second person's routes of the operations API (issue 30): confirming a contradiction's
 * acknowledgement, and approving or rejecting a beneficiary change. Transport glue only, as
 * OpsController (same guard: the role, and no automation token decides).
 */
@Controller('ops')
@UseGuards(OpsAuthGuard)
export class OpsFourEyesController {
  constructor(
    @Inject(ConfirmAcknowledgement) private readonly confirmAcknowledgement: ConfirmAcknowledgement,
    @Inject(DecideBeneficiaryChange) private readonly decideBeneficiaryChange: DecideBeneficiaryChange,
    @Inject(ListBeneficiaryProposals) private readonly listBeneficiaryProposals: ListBeneficiaryProposals,
  ) {}

  /** The second person confirms a contradiction's acknowledgement: it leaves the queue. */
  @Post('contradictions/:contradictionId/confirm')
  @Needs('decide')
  @HttpCode(200)
  confirm(@Who() who: Operator, @Param('contradictionId') id: string, @Body() body: unknown) {
    return answer(() => this.confirmAcknowledgement.execute(who, parseAcknowledgeContradiction(id, body)));
  }

  /** Beneficiary changes proposed by a person, newest first, paged; masked. */
  @Get('beneficiary-proposals')
  beneficiaryProposals(@Query() q: SearchQuery) {
    return answer(() => this.listBeneficiaryProposals.execute(parseListBeneficiaryProposals(q)));
  }

  /** Another person approves: only now is the provider asked; its answer is in the body. */
  @Post('beneficiary-proposals/:id/approve')
  @Needs('decide')
  @HttpCode(200)
  approveBeneficiary(@Who() who: Operator, @Param('id') id: string, @Body() body: unknown) {
    return answer(() => this.decideBeneficiaryChange.approve(who, parseDecideProposal(id, body)));
  }

  @Post('beneficiary-proposals/:id/reject')
  @Needs('decide')
  @HttpCode(200)
  rejectBeneficiary(@Who() who: Operator, @Param('id') id: string, @Body() body: unknown) {
    return answer(() => this.decideBeneficiaryChange.reject(who, parseDecideProposal(id, body)));
  }
}
