"""Case metadata of the scenario schema: the source domain, the defect class of a
controlled case and the update pair it belongs to (never shown to an assistant).

Re-exported by :mod:`symbolic.scenario.model`.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["DEFECT_CLASSES", "DefectClass", "Domain", "Metadata"]

_FROZEN = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)


class Domain(str, Enum):
    """The paper's five source categories."""

    CONTRACTS = "contracts"
    BANKING_GUARANTEES = "banking_guarantees"
    COMPLIANCE = "compliance"
    INTERNAL_POLICIES = "internal_policies"
    REGULATORY = "regulatory"


class DefectClass(str, Enum):
    """Defect classes of the controlled suite (paper Table 6)."""

    MISSING_EVIDENCE = "missing_evidence"
    INCOMPLETE_COVERAGE = "incomplete_coverage"
    EXTRACTION_ERROR = "extraction_error"
    PRIORITY_INVERSION = "priority_inversion"
    ATTACK_DELETION = "attack_deletion"
    INVALID_PROOF_NODE = "invalid_proof_node"
    NONE = "none"


#: The six defect classes of the controlled suite, in the paper's order (Table 6).
DEFECT_CLASSES = (
    DefectClass.MISSING_EVIDENCE,
    DefectClass.INCOMPLETE_COVERAGE,
    DefectClass.EXTRACTION_ERROR,
    DefectClass.PRIORITY_INVERSION,
    DefectClass.ATTACK_DELETION,
    DefectClass.INVALID_PROOF_NODE,
)


class Metadata(BaseModel):
    """Case metadata; never shown to an assistant."""

    model_config = _FROZEN
    domain: Domain | None = None
    contradiction: bool = False
    priority: bool = False
    pair: str | None = Field(default=None, description="Update-pair id shared by base and update.")
    role: Literal["base", "update"] | None = None
    split: str | None = None
    defect_class: DefectClass | None = None
    defect_location: str | None = None
    tags: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _pair_role(self):
        if (self.pair is None) != (self.role is None):
            raise ValueError("metadata.pair and metadata.role must be given together")
        return self
