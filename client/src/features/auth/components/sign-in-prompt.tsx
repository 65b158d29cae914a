import { LogIn } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

export function SignInPrompt({ reason }: { reason: string }) {
  return (
    <Card data-testid="sign-in-prompt">
      <CardHeader>
        <CardTitle>Sign in to continue</CardTitle>
        <CardDescription className="text-base">{reason}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button asChild>
          <Link href="/auth">
            <LogIn aria-hidden="true" />
            Sign in / Register
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
